//go:build !linux

package console

import "errors"

// peerCred is Linux's SO_PEERCRED; elsewhere (the agent's FreeBSD build,
// which serves no console) the peer is unknown and the socket refuses it.
func peerCred(uintptr) (uid, pid int, err error) {
	return 0, 0, errors.New("peer credentials are read on Linux only")
}
