package sshpool

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// ErrInvalidName is wrapped by every error about a host, user or alias that
// cannot be used safely.
var ErrInvalidName = errors.New("invalid name")

// maxNameLen bounds host names, users and aliases; DNS names stop at 253.
const maxNameLen = 253

// ValidateHost checks a host name or address that will be dialled or handed
// to another program. It refuses what could be read as an option (a leading
// "-"), whitespace, control characters and shell metacharacters, so that
// "-oProxyCommand=…" can never reach ssh, ssh-keyscan or a shell.
func ValidateHost(host string) error {
	if err := validateToken("host", host, "-._:%"); err != nil {
		return err
	}
	return nil
}

// ValidateUser checks a remote login name by the same rules as
// ValidateHost; "@" and ":" are refused too, as they would split
// user@host:port differently.
func ValidateUser(user string) error {
	return validateToken("user", user, "-._")
}

// ValidateAlias checks an inventory or ssh_config name as an agent may pass
// it in a tool's host argument.
func ValidateAlias(name string) error {
	return validateToken("host name", name, "-._:")
}

// validateToken allows letters, digits and the given punctuation, and
// never a leading "-".
func validateToken(what, s, punct string) error {
	if s == "" {
		return fmt.Errorf("%s is empty: %w", what, ErrInvalidName)
	}
	if len(s) > maxNameLen {
		return fmt.Errorf("%s is longer than %d bytes: %w", what, maxNameLen, ErrInvalidName)
	}
	if s[0] == '-' {
		return fmt.Errorf("%s %q starts with '-', which other programs would read as an option: %w", what, s, ErrInvalidName)
	}
	for _, r := range s {
		switch {
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		case strings.ContainsRune(punct, r):
		default:
			return fmt.Errorf("%s %q contains %s: %w", what, printable(s), describeRune(r), ErrInvalidName)
		}
	}
	return nil
}

func describeRune(r rune) string {
	switch {
	case unicode.IsSpace(r):
		return "whitespace"
	case unicode.IsControl(r):
		return "a control character"
	case r >= 0x80:
		return "a non-ASCII character"
	}
	return fmt.Sprintf("%q", r)
}

// printable keeps control characters in an error message visible and
// harmless.
func printable(s string) string {
	q := fmt.Sprintf("%q", s)
	return q[1 : len(q)-1]
}
