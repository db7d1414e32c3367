package audit

import "strings"

// A case statement on a secret-named variable (case "$PGPASSWORD" in
// S3cret) …;; esac): each pattern is a literal tried against the secret,
// as a comparison's is (redact_compare.go).

// maxCaseClauses bounds the clauses one case statement is read for.
const maxCaseClauses = 64

// secretCase queues the literal patterns of the case statement whose word
// "case" ends at j when its subject expands a secret-named variable. The
// look-ahead stops at the next case word, whose own look-ahead goes on
// from there, so no byte is read by two of them.
func (r *redactor) secretCase(j int) {
	s := r.s
	name, k := caseSubject(s, skipBlanks(s, j))
	if name == "" || !secretName(name) && secretKey(name) != keyPlain {
		return
	}
	k = skipBlanks(s, k)
	if !keywordAt(s, k, "in") {
		return
	}
	k += 2
	for range maxCaseClauses {
		k = skipLines(s, k)
		if k >= len(s) || keywordAt(s, k, "esac") {
			return
		}
		if s[k] == '(' {
			k++
		}
		for {
			k = skipBlanks(s, k)
			e := patternEnd(s, k)
			if e == k {
				return
			}
			r.casePattern(k, e)
			if k = skipBlanks(s, e); k >= len(s) {
				return
			}
			if s[k] == ')' {
				break
			}
			if s[k] != '|' {
				return
			}
			k++
		}
		if k = caseBodyEnd(s, k+1); k < 0 {
			return
		}
	}
}

// caseSubject reads a case statement's subject at k when it is one
// variable's expansion, however quoted ($P, "$P", ${P}, "${P:-}", \"\$P\"
// one shell down), and returns the name and where the word ends.
func caseSubject(s string, k int) (string, int) {
	for k < len(s) && (s[k] == '"' || s[k] == '\\') {
		k++
	}
	if k >= len(s) || s[k] != '$' {
		return "", k
	}
	k++
	brace := k < len(s) && s[k] == '{'
	if brace {
		k++
	}
	b := k
	for k < len(s) && (isAlnum(s[k]) || s[k] == '_') {
		k++
	}
	name := s[b:k]
	if brace {
		e := strings.IndexByte(s[k:], '}')
		if e < 0 {
			return "", k
		}
		k += e + 1
	}
	for k < len(s) && (s[k] == '"' || s[k] == '\\') {
		k++
	}
	if k < len(s) && s[k] != ' ' && s[k] != '\t' {
		return "", k // "$P"x: more than the variable
	}
	return name, k
}

// casePattern queues the pattern s[k:e] unless it is no literal: a lone
// glob (*), or one that expands something.
func (r *redactor) casePattern(k, e int) {
	p := r.s[k:e]
	if strings.IndexByte(p, '$') >= 0 || strings.Trim(p, `*?"'\`) == "" {
		return
	}
	for k < e && (r.s[k] == '"' || r.s[k] == '\'' || r.s[k] == '\\') {
		k++
	}
	for e > k && (r.s[e-1] == '"' || r.s[e-1] == '\'' || r.s[e-1] == '\\') {
		e--
	}
	if e > k {
		r.queueSorted(k, e)
	}
}

// patternEnd returns where the case pattern starting at k ends: at a blank,
// '|' or ')' outside quotes.
func patternEnd(s string, k int) int {
	for k < len(s) {
		switch c := s[k]; c {
		case ' ', '\t', '\n', '\r', '|', ')', ';', '&', '<', '>':
			return k
		case '\\':
			k += 2
		case '"', '\'':
			e := strings.IndexByte(s[k+1:], c)
			if e < 0 {
				return len(s)
			}
			k += e + 2
		default:
			k++
		}
	}
	return min(k, len(s))
}

// caseBodyEnd returns where the next clause's patterns start after the
// clause body starting at k (past ;;, ;& or ;;&), or -1 at esac, at a
// nested case statement, or at the end of s.
func caseBodyEnd(s string, k int) int {
	for k < len(s) {
		switch c := s[k]; {
		case c == ';' && k+1 < len(s) && (s[k+1] == ';' || s[k+1] == '&'):
			k += 2
			if k < len(s) && s[k] == '&' {
				k++
			}
			return k
		case c == '\\':
			k += 2
		case c == '\'':
			e := strings.IndexByte(s[k+1:], c)
			if e < 0 {
				return -1
			}
			k += e + 2
		case startsWord(s, k) && (keywordAt(s, k, "esac") || keywordAt(s, k, "case")):
			return -1
		default:
			k++
		}
	}
	return -1
}

// keywordAt reports whether the word w stands alone at k.
func keywordAt(s string, k int, w string) bool {
	e := k + len(w)
	return strings.HasPrefix(s[k:], w) && (e == len(s) || !wordByte[s[e]])
}

// skipLines skips blanks and line ends.
func skipLines(s string, k int) int {
	for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
		k++
	}
	return k
}
