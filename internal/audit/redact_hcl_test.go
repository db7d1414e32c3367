package audit

import "testing"

// TestRedactHCLVariableDefaults: a Terraform or Packer variable named
// like a secret, or marked sensitive, holds its secret under default, in
// a string, a heredoc or any value; other variables keep theirs.
func TestRedactHCLVariableDefaults(t *testing.T) {
	checkCases(t, []spelling{
		{"variable \"db_password\" {\n  type    = string\n  default = \"S3cr3tZ\"\n}", []string{"S3cr3tZ"}, []string{"type    = string", "default = \""}},
		{"cat > vars.tf <<EOF\nvariable \"api_token\" {\n  default = \"S3cr3tZ\"\n  description = \"the token\"\n}\nEOF", []string{"S3cr3tZ"}, []string{`description = "the token"`}},
		{"variable \"db\" {\n  sensitive = true\n  default   = \"S3cr3tZ\"\n}", []string{"S3cr3tZ"}, []string{"sensitive = true"}},
		{"variable \"db\" {\n  default   = \"S3cr3tZ\"\n  sensitive=true\n}", []string{"S3cr3tZ"}, []string{"sensitive=true"}},
		{"variable \"admin_secret\" { default = \"S3cr3tZ\" }", []string{"S3cr3tZ"}, []string{"variable \"admin_secret\" { default = \""}},
		{"variable \"ssh_private_key\" {\n  default = <<EOT\nS3cr3tZ\nEOT\n}", []string{"S3cr3tZ"}, []string{"default = <<EOT"}},
		{"variable \"creds\" {\n  default = { user = \"bob\", pass = \"S3cr3tZ\" }\n}", []string{"S3cr3tZ"}, []string{"variable \"creds\""}},
		{"variable \"pin\" {\n  sensitive = true\n  default = 734512\n}", []string{"734512"}, []string{"sensitive = true"}},
		// Kept: a variable that is none, and a sensitive one unset.
		{"variable \"region\" {\n  default = \"eu-west-1\"\n}", nil, []string{`"eu-west-1"`}},
		{"variable \"db\" {\n  sensitive = false\n  default = \"keepme\"\n}", nil, []string{`"keepme"`}},
		{"variable \"db_password\" {\n  type = string\n}\nvariable \"size\" { default = 3 }", nil, []string{"default = 3"}},
	})
}

// TestRedactMakeAssignments: make's conditional and POSIX assignments
// (NAME ?= value, NAME ::= value) set a secret-named variable too.
func TestRedactMakeAssignments(t *testing.T) {
	checkCases(t, []spelling{
		{"TOKEN ?= S3cr3tZ\nall:\n\t./deploy", []string{"S3cr3tZ"}, []string{"TOKEN ?= ", "\t./deploy"}},
		{"export API_KEY ?= S3cr3tZ", []string{"S3cr3tZ"}, []string{"export API_KEY ?= "}},
		{"DB_PASSWORD?=S3cr3tZ", []string{"S3cr3tZ"}, []string{"DB_PASSWORD?="}},
		{"DB_PASSWORD ::= S3cr3tZ", []string{"S3cr3tZ"}, []string{"DB_PASSWORD ::= "}},
		// Kept: names that are none, and a query string.
		{"PREFIX ?= /usr/local\nCC ::= gcc", nil, []string{"PREFIX ?= /usr/local", "CC ::= gcc"}},
	})
}
