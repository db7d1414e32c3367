// Package shellword owns the two facts about POSIX shell text that warden
// relies on wherever it writes a command line for a shell to read: how to
// quote a string as one word, and which names are valid variable names.
package shellword

import "strings"

// plain are the bytes a word may consist of and still be left unquoted in
// every POSIX-family shell: no expansion, globbing, field splitting or
// assignment starts with any of them (zsh's =cmd is why '=' is not here).
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,@%"

// Quote returns s as one shell word: as it is when it holds only plain
// bytes, otherwise single-quoted, each single quote closed, escaped and
// reopened.
func Quote(s string) string {
	if s != "" && strings.Trim(s, plain) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each of argv and joins them with spaces: the command line a
// shell reads back as argv.
func Join(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

// ValidName reports whether name is a shell variable name: letters,
// digits and underscores, not starting with a digit.
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}
