package audit

import "testing"

// TestRedactPasswdCommandLine: a line starting with passwd, pass or
// secret is a conf line whose value is secret only when the word after
// is a value: the passwd command's options stay, and its here-document,
// redirection or here-string is read as the secret input it is.
func TestRedactPasswdCommandLine(t *testing.T) {
	checkCases(t, []spelling{
		{"passwd <<EOF\nS3cr3tZ\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"passwd <<EOF\n"}},
		{"passwd <<'EOF'\nS3cr3tZ\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"passwd <<'EOF'\n"}},
		{"passwd <<-EOF\n\tS3cr3tZ\n\tS3cr3tZ\n\tEOF", []string{"S3cr3tZ"}, []string{"passwd <<-EOF\n"}},
		{"passwd <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"passwd <<< "}},
		{"passwd -S", nil, []string{"passwd -S"}},
		{"passwd -l", nil, []string{"passwd -l"}},
		{"passwd --status", nil, []string{"passwd --status"}},
		{"passwd < /root/pwfile", nil, []string{"passwd < /root/pwfile"}},
		{"passwd >/dev/null", nil, []string{"passwd >/dev/null"}},
		// A conf line's value still goes.
		{"cat > f.conf <<EOF\npasswd S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"\npasswd "}},
		// The passwd command's user.
		{"passwd bob", nil, []string{"passwd bob"}},
		{"passwd root", nil, []string{"passwd root"}},
		{"secret S3cr3tZ", []string{"S3cr3tZ"}, []string{"secret "}},
	})
}
