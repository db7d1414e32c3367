package audit

import "testing"

// TestRedactPasswordSetterCalls: frameworks' calls that set or hash a
// password take it as a literal argument by position.
func TestRedactPasswordSetterCalls(t *testing.T) {
	checkCases(t, []spelling{
		{"user.set_password('S3cr3tZ'); user.save()", []string{"S3cr3tZ"}, []string{"user.save()"}},
		{`python manage.py shell -c "u=User.objects.get(username='bob'); u.set_password(\"S3cr3tZ\"); u.save()"`, []string{"S3cr3tZ"}, []string{"username='bob'"}},
		{"User.objects.create_user('bob', 'b@x.org', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"'bob', 'b@x.org', '"}},
		{`User.objects.create_superuser("admin", "a@x.org", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"admin", "a@x.org", "`}},
		{"get_user_model().objects.create_user('bob', None, 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"'bob', None, '"}},
		{"hash_password('S3cr3tZ')", []string{"S3cr3tZ"}, []string{"hash_password('"}},
		{"user.setPassword('S3cr3tZ')", []string{"S3cr3tZ"}, []string{"user.setPassword('"}},
		{"keyring.set_password('svc', 'bob', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"'svc', 'bob', '"}},
		// Inside a shell's double quotes, the literals' quotes escaped.
		{`python3 -c "import ftplib; ftplib.FTP(\"h\").login(\"bob\", \"S3cr3tZ\")"`, []string{"S3cr3tZ"}, []string{`login(\"bob\", \"`}},
		{`python3 -c "import hmac; hmac.new(b\"S3cr3tZ\", b\"m\", \"sha256\")"`, []string{"S3cr3tZ"}, []string{`b\"m\"`}},
		{`php -r "\$c = new PDO(\"mysql:host=h\", \"bob\", \"S3cr3tZ\");"`, []string{"S3cr3tZ"}, []string{`\"bob\", \"`}},
		{`node -e "require('mysql').createConnection({}); c.connect(\"h\", 22, \"bob\", \"S3cr3tZ\")"`, []string{"S3cr3tZ"}, []string{`\"bob\", \"`}},
		// Kept: variables, and a user created without a literal password.
		{"user.set_password(form.cleaned_data['pw'])", nil, []string{"form.cleaned_data['pw']"}},
		{"User.objects.create_user('bob', 'b@x.org')", nil, []string{"'bob', 'b@x.org'"}},
	})
}
