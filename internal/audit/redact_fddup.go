package audit

import "strings"

// A descriptor a reader's input is duplicated from: exec 3<<<'bob:…';
// chpasswd <&3, chpasswd 3<<<'…' <&3, exec 4< <(echo …); sudo -S id
// 0<&4, { chpasswd <&3; } 3<<< …, chpasswd < /dev/fd/3. What a command
// gives a descriptor other than 0 is noted (exec's for the rest of the
// text, any other command's for its own redirections); a reader that
// takes its input from that descriptor makes it secret, and a later
// redirection to it in the same command is secret as sshpass -d 3's is.

// fdFeed is text given to descriptor fd: a here-string, a here-document's
// body, what a process substitution prints. exec's last for the rest of
// the text.
type fdFeed struct {
	fd    int
	exec  bool
	text  span
	valid bool
}

// fdFeeds is what the redactor keeps for this rule, in stdinState.
type fdFeeds struct {
	feeds [4]fdFeed
	// group are the descriptors the readers inside the open group or
	// compound command take their input from, for a redirection after
	// its close ({ chpasswd <&3; } 3<<< …).
	group uint16
	// names are the descriptors named by the text ({fd}<<<),
	// standing for firstNamedFd on (redact_namedfds.go).
	names  [4]string
	nnames int
	// docLine is the line end after the last here-document operator
	// whose body was noted: one body a line is read, so the pass stays
	// linear.
	docLine int
}

// noteFd notes the text s[from:to] given to descriptor fd.
func (r *redactor) noteFd(fd, from, to int) {
	st := &r.stdin
	if to <= from {
		return
	}
	f := fdFeed{fd: fd, exec: st.cmd == "exec", text: span{from, to}, valid: true}
	for k, g := range st.fdIn.feeds {
		if !g.valid || g.fd == fd {
			st.fdIn.feeds[k] = f
			return
		}
	}
	copy(st.fdIn.feeds[:], st.fdIn.feeds[1:])
	st.fdIn.feeds[len(st.fdIn.feeds)-1] = f
}

// noteFdDoc notes the body of the here-document whose operator at i
// feeds descriptor fd, when it is the first on its line.
func (r *redactor) noteFdDoc(fd, i int) {
	s := r.s
	eol, delims := heredocDelims(s, i)
	if eol < 0 || len(delims) == 0 || eol == r.stdin.fdIn.docLine {
		return
	}
	r.stdin.fdIn.docLine = eol
	heredocBodies(s, eol, delims[:1], r.enclosingQuote(i), func(b span) {
		r.noteFd(fd, b.from, b.to)
	})
}

// noteFdProcess notes what the process substitution whose '(' is at k,
// given to descriptor fd, prints by echo, printf or yes.
func (r *redactor) noteFdProcess(fd, k int) {
	if from, to := processEcho(r.s, k); to > from {
		r.noteFd(fd, from, to)
	}
}

// readsFrom is called when the current command, a reader, takes its
// input from descriptor fd: what was given to fd is secret, and so is a
// later redirection to it in this command or after the group's close.
func (r *redactor) readsFrom(fd int) {
	st := &r.stdin
	st.fds |= 1 << fd
	if st.depth > 0 || st.compound > 0 {
		st.fdIn.group |= 1 << fd
	}
	for k, f := range st.fdIn.feeds {
		if f.valid && f.fd == fd {
			if from := max(f.text.from, r.done); f.text.to > from {
				r.replace(from, f.text.to, Redacted)
			}
			st.fdIn.feeds[k].valid = false
		}
	}
}

// fdCommandEnds forgets what a command that ended gave its descriptors,
// but for exec's.
func (r *redactor) fdCommandEnds() {
	for k := range r.stdin.fdIn.feeds {
		if f := &r.stdin.fdIn.feeds[k]; f.valid && !f.exec {
			f.valid = false
		}
	}
}

// dupSourceAt is dupSource, also for a named descriptor: <&$fd, <&"$fd".
func (r *redactor) dupSourceAt(i int) int {
	s := r.s
	if fd := dupSource(s, i); fd > 0 || redirectFd(s, i) > 0 || i+2 >= len(s) || s[i+1] != '&' {
		return fd
	}
	return r.namedDup(i + 2)
}

// dupSource returns the descriptor the input redirection at i takes the
// command's input from: 3 for <&3, 0<&3 and < /dev/fd/3, -1 for none
// (another descriptor's redirection, a file, <&-).
func dupSource(s string, i int) int {
	if redirectFd(s, i) > 0 {
		return -1 // 4<&3: not the command's input
	}
	k := i + 1
	if k < len(s) && s[k] == '&' {
		k++
	} else {
		k = skipBlanks(s, k)
		switch {
		case strings.HasPrefix(s[k:], "/dev/fd/"):
			k += len("/dev/fd/")
		case strings.HasPrefix(s[k:], "/proc/self/fd/"):
			k += len("/proc/self/fd/")
		default:
			return -1
		}
	}
	if k < len(s) && s[k] >= '1' && s[k] <= '9' && (k+1 == len(s) || s[k+1] < '0' || s[k+1] > '9') {
		return int(s[k] - '0')
	}
	return -1
}
