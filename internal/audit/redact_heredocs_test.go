package audit

import "testing"

// TestRedactHeredocInsideScripts: a here-document written inside a string
// a shell runs (bash <<< '…', sh -c '…', ssh host '…') feeds its command
// as one at the top level does. The "<<" inside "<<<" is no here-document
// operator, so it no longer hides the real one that follows; the body
// ends at its delimiter line even when the string's closing quote follows
// the delimiter, so the rest stays readable.
func TestRedactHeredocInsideScripts(t *testing.T) {
	checkSpellings(t, []spelling{
		{"bash <<< 'chpasswd <<EOF\nbob:S3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"bash <<< 'chpasswd <<EOF\n", "\nEOF'"}},
		{"bash <<< 'chpasswd <<EOF\nbob:S3cr3tZ\nEOF\n'", []string{"S3cr3tZ"}, []string{"\nEOF\n'"}},
		{"sudo bash <<< 'passwd bob <<EOF\nS3cr3tZ\nS3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"passwd bob <<EOF", "\nEOF'"}},
		{"ssh h bash <<< 'chpasswd <<EOF\nbob:S3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"ssh h bash <<< 'chpasswd", "\nEOF'"}},
		{"bash <<< \"cat <<EOF | chpasswd\nbob:S3cr3tZ\nEOF\"", []string{"S3cr3tZ"}, []string{"cat <<EOF | chpasswd", "\nEOF\""}},
		{"bash <<< 'sudo -S id <<EOF\nS3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"sudo -S id <<EOF", "\nEOF'"}},
		{"bash <<< 'mysql -uroot -p <<EOF\nS3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"mysql -uroot -p <<EOF"}},
		{"bash <<< 'cat > ~/.pgpass <<EOF\nh:5432:*:bob:S3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"cat > ~/.pgpass <<EOF", "\nEOF'"}},
		{"bash <<< 'chpasswd <<-EOF\n\tbob:S3cr3tZ\n\tEOF'", []string{"S3cr3tZ"}, []string{"chpasswd <<-EOF", "\tEOF'"}},
		{"bash <<< 'chpasswd <<\"EOF\"\nbob:S3cr3tZ\nEOF'", []string{"S3cr3tZ"}, []string{"chpasswd <<\"EOF\"", "\nEOF'"}},
		{"sh <<< 'chpasswd <<EOF\nbob:S3cr3tZ\nEOF' && echo done", []string{"S3cr3tZ"}, []string{"EOF' && echo done"}},
		// The closing quote after the delimiter ends the body in sh -c
		// and ssh too, instead of it running to the end of the text.
		{"bash -c 'chpasswd <<EOF\nbob:S3cr3tZ\nEOF' && echo done", []string{"S3cr3tZ"}, []string{"bash -c 'chpasswd <<EOF\n", "\nEOF' && echo done"}},
		{"ssh h 'chpasswd <<EOF\nbob:S3cr3tZ\nEOF'; uptime", []string{"S3cr3tZ"}, []string{"\nEOF'; uptime"}},
		{"sh -c \"cat > ~/.pgpass <<EOF\nh:5432:*:bob:S3cr3tZ\nEOF\"; ls", []string{"S3cr3tZ"}, []string{"\nEOF\"; ls"}},
		// A here-string before a pipe no longer stands in for the
		// here-document of the reader after it.
		{"cat <<< hi | chpasswd <<EOF\nbob:S3cr3tZ\nEOF\necho done", []string{"S3cr3tZ"}, []string{"\nEOF\necho done"}},
		// A here-string whose word looks like a delimiter starts no body.
		{"cat <<< EOF | wc -l\nfoo\nEOF", nil, []string{"cat <<< EOF | wc -l\nfoo\nEOF"}},
		{"grep -c x <<< EOF\nchpasswd < f\nEOF", nil, []string{"chpasswd < f\nEOF"}},
	})
}
