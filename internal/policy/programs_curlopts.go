package policy

import (
	"slices"
	"strings"
)

// curl's long options as its parser reads them: curl 7.x and 8.x take any
// unambiguous prefix of a long name (--data-b is --data-binary, --uploa
// is --upload-file), curl 8.15 takes a value attached with "=", and curl
// 8.3 reads --expand-NAME as NAME with {{variables}} expanded in its
// value.

// curlFlagLong are curl's long options that take no value, as curl --help
// all lists them; with curlGrammar.long and curlValueLong they are every
// long name a prefix can abbreviate.
var curlFlagLong = set(`--anyauth --append --basic --ca-native --cert-status --compressed
	--compressed-ssh --create-dirs --crlf --digest --disable --disable-eprt --disable-epsv
	--disallow-username-in-url --doh-cert-status --doh-insecure --fail --fail-early --fail-with-body
	--false-start --form-escape --ftp-create-dirs --ftp-pasv --ftp-pret --ftp-skip-pasv-ip
	--ftp-ssl-ccc --ftp-ssl-control --get --globoff --haproxy-protocol --head --help --http0.9
	--http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 --http3-only --ignore-content-length
	--include --insecure --ipv4 --ipv6 --junk-session-cookies --list-only --location
	--location-trusted --mail-rcpt-allowfails --manual --metalink --negotiate --netrc --netrc-optional
	--next --no-alpn --no-buffer --no-clobber --no-keepalive --no-npn --no-progress-meter
	--no-sessionid --ntlm --ntlm-wb --parallel --parallel-immediate --path-as-is --post301 --post302
	--post303 --progress-bar --proxy-anyauth --proxy-basic --proxy-ca-native --proxy-digest
	--proxy-insecure --proxy-negotiate --proxy-ntlm --proxy-ssl-allow-beast
	--proxy-ssl-auto-client-cert --proxy-tlsv1 --proxy1.0 --proxytunnel --raw --remote-header-name
	--remote-name --remote-name-all --remote-time --remove-on-error --retry-all-errors
	--retry-connrefused --sasl-ir --show-error --silent --socks5-basic --socks5-gssapi
	--socks5-gssapi-nec --ssl --ssl-allow-beast --ssl-auto-client-cert --ssl-no-revoke --ssl-reqd
	--ssl-revoke-best-effort --sslv2 --sslv3 --styled-output --suppress-connect-headers
	--tcp-fastopen --tcp-nodelay --tftp-no-options --tlsv1 --tlsv1.0 --tlsv1.1 --tlsv1.2 --tlsv1.3
	--tr-encoding --trace-time --use-ascii --verbose --version --xattr`)

// curlTakesValue reports whether curl's long option name takes a value.
func curlTakesValue(name string) bool {
	return curlValueLong[name] || curlGrammar.long[name]
}

// curlLongNames returns the long options a word beginning with "--"
// names, without any "=value": itself when it is one, else every option
// it is a prefix of. A prefix of several is ambiguous to the curl that
// knows them all, but an older curl knows fewer and may take it for one,
// so each counts. A word that names none is returned as it is.
func curlLongNames(name string, dst []string) []string {
	if curlFlagLong[name] || curlTakesValue(name) || len(name) < 3 {
		return append(dst, name)
	}
	n := len(dst)
	for _, set := range []map[string]bool{curlFlagLong, curlValueLong, curlGrammar.long} {
		for o := range set {
			if strings.HasPrefix(o, name) && !slices.Contains(dst[n:], o) {
				dst = append(dst, o)
			}
		}
	}
	if len(dst) == n {
		return append(dst, name)
	}
	slices.Sort(dst[n:]) // the same reason whatever the maps' order
	return dst
}
