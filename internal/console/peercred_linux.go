package console

import "golang.org/x/sys/unix"

// peerCred reads the user and process at the other end of a Unix socket.
func peerCred(fd uintptr) (uid, pid int, err error) {
	cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, 0, err
	}
	return int(cred.Uid), int(cred.Pid), nil
}
