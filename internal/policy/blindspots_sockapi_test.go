package policy

import "testing"

// TestBlindSpotDaemonSocketAPI: a web client sent to a daemon's Unix
// socket speaks its API with the daemon's privileges (dockerd's are
// root's): a request that sends anything is tier 3, as socat
// UNIX-CONNECT is, and a GET of anything but the listings docker ps,
// inspect and logs read (a container's files, an image, configs, the
// swarm's keys) needs approval, in every spelling of the socket option.
func TestBlindSpotDaemonSocketAPI(t *testing.T) {
	p := testPolicy(t)
	const s = `/var/run/docker.sock`
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`curl --unix-socket `+s+` -X POST http://x/containers/create -d '{}'`,
		`curl --unix-socket `+s+` -d '{"Image":"alpine"}' http://x/containers/create`,
		`curl --unix-socket `+s+` -XPOST http://x/containers/abc/start`,
		`curl -sX POST --unix-socket `+s+` http://x/v1.43/containers/abc/exec`,
		`curl --unix-socket `+s+` http://x/exec/abc/start -X POST`,
		`curl --unix-socket `+s+` -X PUT http://x/containers/abc/archive?path=/`,
		`curl --unix-socket `+s+` -T /tmp/t.tar http://x/containers/abc/archive?path=/`,
		`curl --unix-socket `+s+` --data-binary @/tmp/ctx.tar http://x/build`,
		`curl --unix-socket `+s+` -F a=b http://x/plugins/pull`,
		`curl --unix-socket `+s+` --json '{}' http://x/containers/create`,
		`curl --unix-socket `+s+` -G -F a=b http://x/containers/json`,
		`curl --unix-socket `+s+` --request "$m" http://x/containers/json`,
		`curl --unix-socket `+s+` --expand-request '{{m}}' http://x/containers/json`,
		`curl --unix `+s+` -XPOST http://x/containers/create`,
		`curl --unix-s `+s+` --data-b @x http://x/build`,
		`curl --unix-socket=`+s+` -XPOST http://x/containers/create`,
		`curl --abstract-unix-socket dockerd -XPOST http://x/containers/create`,
		`curl --abs dockerd -d x http://x/containers/create`,
		`curl --unix-socket /run/podman/podman.sock -XPOST http://d/v4.0.0/libpod/containers/create`,
		`curl --unix-socket /run/snapd.socket -d '{"action":"install"}' http://localhost/v2/snaps/x`,
		`sudo curl --unix-socket `+s+` -XPOST http://x/containers/create`,
		`xh --unix-socket `+s+` POST http://x/containers/create Image=alpine`,
		`xh --unix-socket `+s+` http://x/containers/create Image=alpine`,
		`xh --unix-socket=`+s+` http://x/containers/create Cmd:='["sh"]'`,
		`http POST http+unix://%2Fvar%2Frun%2Fdocker.sock/containers/create Image=alpine`,
		`nc -U `+s,
		`nc -vU `+s,
		`echo -e 'POST /containers/abc/start HTTP/1.0\r\n\r\n' | nc -U `+s,
		`ncat -U `+s,
		`ncat --unixsock `+s,
		`ncat --unix `+s,
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`curl --unix-socket `+s+` http://x/containers/abc/archive?path=/etc/shadow`,
		`curl --unix-socket `+s+` http://x/containers/abc/export`,
		`curl -s --unix-socket `+s+` http://x/v1.43/containers/abc/export -o-`,
		`curl --unix-socket `+s+` http://x/images/abc/get`,
		`curl --unix-socket `+s+` http://x/secrets`,
		`curl --unix-socket `+s+` http://x/configs/abc`,
		`curl --unix-socket `+s+` http://x/swarm/unlockkey`,
		`curl --unix-socket `+s+` http://x/swarm`,
		`curl --unix-socket `+s+` http://x/containers/json/../../secrets`,
		`curl --unix-socket `+s+` http://x/containers/abc/%2e%2e/x/archive`,
		`curl --unix-socket `+s+` 'http://x/containers/{a,b}/archive'`,
		`curl --unix-socket `+s+` --request-target /secrets http://x/containers/json`,
		`curl --unix-socket `+s+` --request-t /secrets http://x/containers/json`,
		`curl --unix `+s+` http://x/secrets`,
		`curl --unix-socket=`+s+` http://x/secrets`,
		`curl --abstract-unix-socket dockerd http://x/secrets`,
		`curl --unix-socket /run/containerd/containerd.sock http://x/`,
		`curl --unix-socket `+s+` "http://x/containers/$id/archive"`,
		`curl --unix-socket `+s+` "$u"`,
		`xh --unix-socket `+s+` http://x/containers/abc/archive path==/etc/shadow`,
		`http http+unix://%2Fvar%2Frun%2Fdocker.sock/secrets`,
	))
	// The listings docker ps, images, inspect, logs and info read stay
	// as the client reads them.
	runExactHosts(t, p, []exactCase{
		{"ps", `curl --unix-socket ` + s + ` http://x/containers/json`, TierBenign},
		{"ps all", `curl -s --unix-socket ` + s + ` 'http://x/v1.43/containers/json?all=1'`, TierBenign},
		{"ps -G", `curl --unix-socket ` + s + ` -G -d all=1 http://x/containers/json`, TierMutate},
		{"inspect", `curl --unix-socket ` + s + ` http://x/containers/web/json`, TierBenign},
		{"logs", `curl --unix-socket ` + s + ` 'http://x/containers/web/logs?stdout=1&tail=50'`, TierBenign},
		{"image inspect", `curl --unix-socket ` + s + ` http://x/images/library/nginx/json`, TierBenign},
		{"info", `curl --unix-socket ` + s + ` http://x/info`, TierBenign},
		{"ping head", `curl -I --unix-socket ` + s + ` http://x/_ping`, TierBenign},
		{"podman ps", `curl -s --unix-socket /run/podman/podman.sock http://d/v4.0.0/libpod/containers/json`, TierBenign},
		{"abbreviated", `curl --unix ` + s + ` http://x/version`, TierBenign},
		{"plain web", `curl -s https://example.org/secrets`, TierBenign},
		{"plain post", `curl -s -d a=b https://example.org/x`, TierMutate},
		{"nc listen", `nc -lU /tmp/s`, TierMutate},
		{"nc port", `nc -vz example.org 443`, TierBenign},
	})
}

// TestBlindSpotCurlLongAbbrev: curl takes a long option by any prefix no
// other option shares (--data-b is --data-binary, --uploa is
// --upload-file), with its value attached by "=" (curl 8.15), and as
// --expand-NAME (curl 8.3): each spelling raises the tier the full name
// does.
func TestBlindSpotCurlLongAbbrev(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`curl --reque DELETE http://x/a`,
		`curl --request=DELETE http://x/a`,
		`curl --expand-request DELETE http://x/a`,
		`curl --conf /tmp/c http://x/a`,
		`curl --config=/tmp/c http://x/a`,
		`curl --eng foo http://x/a`,
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`curl --data-b @/etc/hosts http://x/a`,
		`curl --data-r x http://x/a`,
		`curl --data=x http://x/a`,
		`curl --uploa /etc/hosts http://x/a`,
		`curl --upload-file=/etc/hosts http://x/a`,
		`curl --jso '{}' http://x/a`,
		`curl --for a=@/etc/hosts http://x/a`,
		`curl --reque PUT http://x/a`,
		`curl --quo 'DELE f' ftp://x/`,
		`curl --remote-na http://x/a`,
	))
	runExactHosts(t, p, []exactCase{
		{"silent", `curl --sil https://example.org/`, TierBenign},
		{"location", `curl --locat https://example.org/`, TierBenign},
		{"header", `curl --head https://example.org/`, TierBenign},
		{"max time", `curl --max-t 5 https://example.org/`, TierBenign},
		{"get", `curl --reque GET https://example.org/`, TierBenign},
	})
}

// TestBlindSpotWgetMethodAbbrev: wget takes --method by any prefix
// getopt_long accepts, with its value attached or next: DELETE there is
// tier 3 and any other method tier 2, as --method spelled in full is.
func TestBlindSpotWgetMethodAbbrev(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`wget --meth=DELETE -qO- http://example.org/a`,
		`wget --metho delete -qO- http://example.org/a`,
		`wget --method=Delete -qO- http://example.org/a`,
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`wget --meth=PUT -qO- http://example.org/a`,
		`wget --met POST -qO- http://example.org/a`,
	))
	runExactHosts(t, p, []exactCase{
		{"get", `wget -qO- http://example.org/a`, TierBenign},
	})
}

// TestBlindSpotVarlinkctl: varlinkctl asks a service over its varlink
// socket, as busctl asks one over D-Bus: call runs any method with the
// service's privileges (io.systemd.Manager's Reboot included) and is tier
// 3, and an exec: or ssh-exec: address starts the program that serves it;
// describing a service reads.
func TestBlindSpotVarlinkctl(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`varlinkctl call /run/systemd/io.systemd.Manager io.systemd.Manager.Reboot '{}'`,
		`varlinkctl --json=short call /run/x a.b.C '{}'`,
		`varlinkctl call --oneway /run/x a.b.C '{}'`,
		`sudo varlinkctl call /run/systemd/userdb/io.systemd.Multiplexer io.systemd.UserDatabase.GetUserRecord '{}'`,
		`varlinkctl introspect exec:/tmp/x`,
		`varlinkctl info ssh-exec:h:/tmp/x`,
	))
	runExactHosts(t, p, []exactCase{
		{"info", `varlinkctl info /run/systemd/io.systemd.Hostname`, TierRead},
		{"introspect", `varlinkctl introspect /run/systemd/io.systemd.Hostname io.systemd.Hostname`, TierRead},
		{"interfaces", `varlinkctl list-interfaces /run/systemd/io.systemd.Hostname`, TierRead},
	})
}
