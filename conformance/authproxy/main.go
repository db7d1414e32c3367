// Command authproxy is the loopback reverse proxy scripts/conformance puts
// between the MCP conformance suite and `warden serve --http`.
//
// The suite (0.2.0-alpha.12) has no way to send an Authorization header, and
// warden refuses every HTTP request without its bearer token. authproxy adds
// `Authorization: Bearer $WARDEN_TOKEN` to requests that carry none and
// forwards everything else untouched: the Host and Origin headers stay as
// the suite sent them (the DNS-rebinding scenario depends on that), and
// responses, including SSE streams, are flushed as they arrive.
//
// It prints its base URL (http://ADDR) on stdout once it is listening.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "loopback address to listen on")
	target := flag.String("target", "", "base URL of warden, e.g. http://127.0.0.1:8787")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("authproxy: ")

	token := os.Getenv("WARDEN_TOKEN")
	if token == "" {
		log.Fatal("WARDEN_TOKEN is not set")
	}
	u, err := url.Parse(*target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		log.Fatalf("-target must be an http URL, got %q", *target)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		log.Fatalf("refusing to listen on non-loopback %s", ln.Addr())
	}

	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Host = r.In.Host
			if r.Out.Header.Get("Authorization") == "" {
				r.Out.Header.Set("Authorization", "Bearer "+token)
			}
		},
		// Forward bodies as warden wrote them, SSE included, without
		// transparent compression or buffering.
		Transport:     &http.Transport{DisableCompression: true, Proxy: nil},
		FlushInterval: -1,
	}
	srv := &http.Server{Handler: proxy}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	go func() {
		<-stop
		srv.Close()
	}()

	fmt.Printf("http://%s\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}
