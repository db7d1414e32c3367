package audit

// A secret-named variable compared with a literal ([ "$PGPASSWORD" ==
// "S3cret" ], [[ $DB_PASS != S3cret ]], if password == 'S3cret':, token
// === "S3cret"): the literal is the secret, or one tried against it, as
// much as an assignment's value is; and [ "$PGPASSWORD" = "S3cret" ],
// read like an assignment, was redacted already.

// compared redacts the literal that the secret-named name ending at j is
// compared with by the operator at k (==, ===, !=, !==), and returns
// where the pass resumes, or 0. A quoted literal is redacted wherever the
// comparison is; an unquoted word only where the shell reads it as a
// literal: after a shell variable ($NAME, ${NAME}), and in NAME==word, which
// starting a command assigns "=word". A code's unquoted operand is a name
// (password == confirm), no literal.
func (r *redactor) compared(j, k int, kind keyKind) int {
	s := r.s
	op := k
	if s[op] == '!' {
		op++
	}
	for op < len(s) && op < k+3 && s[op] == '=' {
		op++
	}
	if op-k < 2 {
		return 0
	}
	v := skipBlanks(s, op)
	if v >= len(s) {
		return 0
	}
	if kind == keyPwd && looksLikePath(s, v+b2i(s[v] == '"' || s[v] == '\'')) {
		return 0 // [ "$OLD_PWD" == /srv ]
	}
	if startsQuote(s, v) {
		start, end := valueSpan(s, v)
		if end <= start {
			return 0
		}
		return r.replace(start, end, Redacted)
	}
	b := j
	for b > 0 && wordByte[s[b-1]] {
		b--
	}
	shellVar := b > 0 && s[b-1] == '$' || b > 1 && s[b-1] == '{' && s[b-2] == '$'
	assigned := s[k] == '=' && op == k+2 && v == op && j == k && startsWord(s, b)
	if !shellVar && !assigned || s[v] == '$' {
		return 0
	}
	from := v
	if assigned {
		from = k + 1 // NAME==word assigns "=word"
	}
	start, end := valueSpan(s, v)
	if end <= start {
		return 0
	}
	return r.replace(from, end, Redacted)
}
