package audit

import "strings"

// Descriptors bash allocates and names: exec {fd}<<<'bob:…'; chpasswd
// <&$fd, exec {fd}> >(chpasswd); echo … >&"$fd". Each name the text gives
// such a descriptor stands for a number past 9, so the rules for numbered
// descriptors (redact_fddup.go, redact_sinks.go) read them alike.

// firstNamedFd is the number the first named descriptor stands for.
const firstNamedFd = 10

// redirectFdAt is redirectFd, also for a named descriptor right before the
// operator at i ({fd}<<<, {fd}>).
func (r *redactor) redirectFdAt(i int) int {
	s := r.s
	if fd := redirectFd(s, i); fd > 0 {
		return fd
	}
	if i < 3 || s[i-1] != '}' {
		return 0
	}
	b := strings.LastIndexByte(s[max(0, i-66):i-1], '{')
	if b < 0 {
		return 0
	}
	b += max(0, i-66)
	if !startsWord(s, b) || !shellName(s[b+1:i-1]) {
		return 0
	}
	return r.namedFd(s[b+1:i-1], true)
}

// namedFd returns the number the descriptor name stands for, giving it
// one when add is set and it has none (0 when there is none to give).
func (r *redactor) namedFd(name string, add bool) int {
	f := &r.stdin.fdIn
	for k, n := range f.names[:f.nnames] {
		if n == name {
			return firstNamedFd + k
		}
	}
	if !add || f.nnames == len(f.names) {
		return 0
	}
	f.names[f.nnames] = name
	f.nnames++
	return firstNamedFd + f.nnames - 1
}

// namedDup returns the number a '&' target at k names by a variable
// ($fd, "$fd", ${fd}), -1 when it names no descriptor noted.
func (r *redactor) namedDup(k int) int {
	s := r.s
	// "$fd", and one shell down \"\$fd\".
	for b := k; k < len(s) && k-b < 3 && (s[k] == '"' || s[k] == '\\'); k++ {
	}
	if k+1 >= len(s) || s[k] != '$' {
		return -1
	}
	name := expansionName(s, k+1)
	if name == "" || name == "@" {
		return -1
	}
	if fd := r.namedFd(name, false); fd > 0 {
		return fd
	}
	return -1
}
