package audit

import "strings"

// Text written to a reader's input through a process or a descriptor
// rather than a pipe: echo bob:… > >(chpasswd), exec 3> >(sudo -S id);
// echo … >&3, coproc chpasswd; echo bob:… >&"${COPROC[1]}", coproc P {
// chpasswd; }; printf … >&${P[1]}. The process's or coprocess's command
// is read as the commands in a group are; when one reads a secret on its
// input, what the writer writes there is that secret.

// sinkState is what the redactor keeps for this rule, in stdinState.
type sinkState struct {
	// fds are the descriptors exec opened to a process that reads a
	// secret on its input; def is the one whose process is open.
	fds uint16
	def int
	// coproc: the command is a coprocess, named name (COPROC unless
	// named); readers are the coprocesses that read a secret.
	coproc  bool
	name    string
	readers [2]string
	n       int
}

// outputSink handles the output redirection whose first '>' is at i when
// it writes to a process, a descriptor or a coprocess: it reports
// whether the redirection names no file.
func (r *redactor) outputSink(i int) bool {
	s, st := r.s, &r.stdin
	if i > 0 && s[i-1] == '>' {
		return false // the second '>' of >>, read at the first
	}
	fd := r.redirectFdAt(i)
	k := i + 1
	if k < len(s) && s[k] == '>' {
		k++
	}
	if k < len(s) && s[k] == '&' {
		if fd > 1 {
			return false // 2>&1: another descriptor's output
		}
		n := dupTarget(s, k+1)
		if n < 0 {
			n = r.namedDup(k + 1) // >&$fd, exec {fd}> >(…)
		}
		if n > 0 && st.sinks.fds&(1<<n) != 0 || st.sinks.n > 0 && r.coprocTarget(k+1) {
			r.writesToReader(i) // echo … >&3, >&"${COPROC[1]}"
		}
		return false
	}
	p := skipBlanks(s, k)
	if p == k || !strings.HasPrefix(s[p:], ">(") {
		return false
	}
	if st.cmd == "exec" && fd > 0 {
		st.sinks.def = fd // exec 3> >(chpasswd)
		return true
	}
	if st.echoAt >= 0 && fd <= 1 {
		// echo … > >(chpasswd): fed as a pipe feeds it, the process's
		// reader replaces it (secretInput).
		r.feedSpan(echoed(s, st.echoAt, i))
	}
	return true
}

// writesToReader marks what the current command writes, through the
// redirection at i, as a reader's secret input.
func (r *redactor) writesToReader(i int) {
	st := &r.stdin
	if st.secret {
		return
	}
	if st.echoAt >= 0 && !st.tee {
		r.feedSpan(echoed(r.s, st.echoAt, i))
	}
	r.secretInput(i)
}

// dupTarget returns the descriptor a '>&' names at k (3 for >&3), -1 for
// none.
func dupTarget(s string, k int) int {
	if k < len(s) && s[k] >= '1' && s[k] <= '9' && (k+1 == len(s) || s[k+1] < '0' || s[k+1] > '9') {
		return int(s[k] - '0')
	}
	return -1
}

// coprocTarget reports whether the '>&' target at k is the input of a
// coprocess that reads a secret: ${NAME[1]}, "${NAME[1]}", \"\${NAME[1]}\".
func (r *redactor) coprocTarget(k int) bool {
	s := r.s
	// One shell down the quote and the '$' are escaped: >&\"\${P[1]}\".
	for b := k; k < len(s) && k-b < 3 && (s[k] == '"' || s[k] == '\\'); k++ {
	}
	if !strings.HasPrefix(s[k:], "${") {
		return false
	}
	e := strings.IndexByte(s[k:min(len(s), k+40)], '[')
	if e < 0 || !strings.HasPrefix(s[k+e:], "[1]}") {
		return false
	}
	name := s[k+2 : k+e]
	for _, n := range r.stdin.sinks.readers[:r.stdin.sinks.n] {
		if n == name {
			return true
		}
	}
	return false
}

// coprocWord reads the word w, ending at j, at a command's start: coproc
// starts a coprocess, and a word after it followed by a group names it.
// It reports whether w starts no command.
func (r *redactor) coprocWord(w string, j int) bool {
	c := &r.stdin.sinks
	if w == "coproc" {
		c.coproc, c.name = true, "COPROC"
		return true
	}
	if c.coproc && c.name == "COPROC" && shellName(w) {
		if k := skipBlanks(r.s, j); k > j && k < len(r.s) && (r.s[k] == '{' || r.s[k] == '(') {
			c.name = w // coproc P { chpasswd; }
			return true
		}
	}
	return false
}

// sinkCommandEnds is called where a command ends at group depth 0: a
// coprocess that read a secret is noted by its name, and an exec's
// descriptor whose process did by its number.
func (r *redactor) sinkCommandEnds() {
	st := &r.stdin
	c := &st.sinks
	if c.coproc && (st.secret || st.groupSecret) {
		dup := false
		for _, n := range c.readers[:c.n] {
			dup = dup || n == c.name
		}
		if !dup {
			if c.n == len(c.readers) {
				c.readers[0] = c.readers[1]
				c.n--
			}
			c.readers[c.n] = c.name
			c.n++
		}
	}
	c.coproc = false
}

// sinkGroupCloses is called when the outermost group closes: exec's
// process that read a secret makes its descriptor a reader's input.
func (r *redactor) sinkGroupCloses() {
	st := &r.stdin
	if st.sinks.def > 0 && st.groupSecret {
		st.sinks.fds |= 1 << st.sinks.def
	}
	st.sinks.def = 0
}
