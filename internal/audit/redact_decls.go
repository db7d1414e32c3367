package audit

import "strings"

// A secret-named variable declared with its type between the name and
// the value: TypeScript's, Kotlin's, Swift's, Scala's, Python's and
// Rust's name: Type = value; Go's var name Type = value; C's
// #define NAME value. Without this the type was read as the value
// (password: string = '…' kept the password and lost "string").

// maxTypeLook bounds how far a declared type is read.
const maxTypeLook = 64

// typedEquals returns the index of the '=' that follows a type starting
// at k (blanks, then type text: names, paths, generics, references,
// arrays, on one line), or -1. The '=' starts no '==' or '=>', and a
// blank comes before it, so a value holding an '=' (pw: a=b) is no type.
func typedEquals(s string, k int) int {
	k = skipBlanks(s, k)
	start := k
	end := min(len(s), k+maxTypeLook)
	depth := 0
	for ; k < end; k++ {
		c := s[k]
		switch {
		case c == '=':
		case c == '[' || c == '<' || c == '(':
			depth++
			continue
		case c == ']' || c == '>' || c == ')':
			depth--
			continue
		case c == ';' && depth > 0: // Rust's [u8; 32]
			continue
		case isAlnum(c) || strings.IndexByte("_.&'?|*:, \t", c) >= 0:
			continue
		default:
			return -1
		}
		break
	}
	if k >= end || k == start || k+1 >= len(s) || s[k+1] == '=' || s[k+1] == '>' || !isBlank(s[k-1]) || !isAlnum(s[start]) && s[start] != '&' && s[start] != '[' {
		return -1
	}
	return k
}

// declared redacts the value of a variable named s[i:j] that a Go var or
// const, or a C #define, declares with a type or no separator, and
// returns where scanning resumes, or 0.
func (r *redactor) declared(i, j int) int {
	s := r.s
	w := s[i:j]
	if secretKey(w) != keyPlain {
		return 0 // by its ending: var passwordLength int = 12 is none
	}
	b := i
	for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
		b--
	}
	before := s[max(0, b-8):b]
	switch {
	case strings.HasSuffix(before, "var") || strings.HasSuffix(before, "const"):
		// var dbPassword string = "…", also inside var ( … ).
	case strings.HasSuffix(before, "#define"):
		k := skipBlanks(s, j)
		if k == j || k >= len(s) || s[k] == '\n' {
			return 0
		}
		start, end := valueSpan(s, k)
		if !startsQuote(s, k) {
			start, end = k, k
			for end < len(s) && !isBlank(s[end]) {
				end++
			}
		}
		if end <= start {
			return 0
		}
		return r.replace(start, end, Redacted)
	default:
		if b != i && (b == 0 || s[b-1] == '\n' || s[b-1] == '(') {
			// Go's var ( … ) block: the name starts a line.
			break
		}
		return 0
	}
	eq := typedEquals(s, j)
	if eq < 0 {
		return 0
	}
	return r.keyValue(eq, false, keyPlain, true)
}
