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
	if end := r.labelled(i, j); end > 0 {
		return end // Unseal Key 1: …, Secret ID = …
	}
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

// maxUnpackLook bounds how far an unpacking assignment's target list and
// values are read.
const maxUnpackLook = 256

// unpacked redacts the value that an unpacking assignment gives the
// secret-named target s[i:j] (user, password = 'bob', '…'; Go's :=;
// JavaScript's const [user, password] = [...]), by its place in the
// list, and returns where scanning resumes, or 0 when s[i:j] is no target
// of one. The other targets' values stay: the value after '=' is not
// the secret's when the name is not the list's first.
func (r *redactor) unpacked(i, j int) int {
	s := r.s
	w := s[i:j]
	if secretKey(w) != keyPlain && !secretName(w) {
		return 0
	}
	target := func(c byte) bool { return wordByte[c] || strings.IndexByte(" \t,([$@", c) >= 0 }
	lo := max(0, i-maxUnpackLook)
	b := i
	for b > lo && target(s[b-1]) {
		b--
	}
	place := strings.Count(s[b:i], ",")
	e := j
	end := min(len(s), j+maxUnpackLook)
	for e < end && (target(s[e]) || s[e] == ')' || s[e] == ']') {
		e++
	}
	if e >= end || place == 0 && strings.IndexByte(s[j:e], ',') < 0 {
		return 0 // no list of targets
	}
	if t := s[b:e]; strings.Count(t, "(")+strings.Count(t, "[") != strings.Count(t, ")")+strings.Count(t, "]") {
		return 0 // a call's arguments: f(user, password='…') is the keyword's
	}
	if b > 0 && (s[b-1] == '=' || s[b-1] == ':') {
		return 0 // user=bob,password=…: pairs, each with its own value
	}
	if f := strings.TrimLeft(s[b:i], " \t(["); place > 0 && (f == "" || f[0] == ',') {
		return 0 // no name before the first comma
	}
	switch {
	case strings.HasPrefix(s[e:], ":="):
		e += 2
	case s[e] == '=' && e+1 < len(s) && s[e+1] != '=' && s[e+1] != '>':
		e++
	default:
		return 0
	}
	if optionPairs(s, e) {
		// secret,id=sec0,data=…: qemu's -object TYPE,key=value list,
		// whose first item is a type, not an unpacking's target.
		return 0
	}
	// The values: an optional ( or [, then one per target.
	k := skipBlanks(s, e)
	if k < len(s) && (s[k] == '(' || s[k] == '[') {
		k++
	}
	end = min(len(s), k+maxUnpackLook)
	for n := 0; k < end; n++ {
		k = skipBlanks(s, k)
		a := k
		depth := 0
	value:
		for k < end {
			switch c := s[k]; {
			case startsQuote(s, k):
				// Past the closing quote; an unclosed one ends at the
				// end of what is read.
				_, q := valueSpan(s, k)
				k = min(q+1, end)
				continue
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				if depth == 0 {
					break value
				}
				depth--
			case (c == ',' || c == '\n' || c == ';') && depth == 0:
				break value
			}
			k++
		}
		if n == place {
			if startsQuote(s, a) {
				if from, to := valueSpan(s, a); to > from {
					r.replace(from, to, Redacted)
				}
			} else if v := strings.TrimRight(s[a:k], " \t"); v != "" {
				r.replace(a, a+len(v), Redacted) // a bare value may be the literal
			}
			return max(e, r.done)
		}
		if k >= end || s[k] != ',' {
			break
		}
		k++
	}
	// Fewer values than targets (a call returning the tuple, or no
	// unpacking at all: "0, password=…"): read it as a plain key=value.
	return 0
}

// optionPairs reports whether the text at k, after an '=', goes on as a
// comma-separated key=value list (id=sec0,data=…) before any blank: the
// values of no unpacking assignment, which would need a blank or quote.
func optionPairs(s string, k int) bool {
	end := min(len(s), k+maxUnpackLook)
	for ; k < end; k++ {
		switch s[k] {
		case ' ', '\t', '\n', '\'', '"', '(', '[':
			return false
		case ',':
			if e := identEnd(s, k+1, false); e > k+1 && e < len(s) && s[e] == '=' {
				return true
			}
		}
	}
	return false
}
