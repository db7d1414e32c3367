package audit

import "testing"

// TestRedactLoginCallArguments: calls whose password (or token) is a
// positional argument in a place the call's name tells: RestClient's
// Resource.new(url, user, password), IMAP's authenticate(mechanism, user,
// password), SMTP's authenticate(user, secret, type), PyGithub's
// Github(token) and Github(login, password); the other arguments stay.
func TestRedactLoginCallArguments(t *testing.T) {
	checkSpellings(t, []spelling{
		{"ruby -e 'RestClient::Resource.new(\"https://x\", \"bob\", \"S3cr3tZ\")'", []string{"S3cr3tZ"}, []string{"\"https://x\", \"bob\""}},
		{"ruby -e \"r = RestClient::Resource.new('https://api/x', 'bob', 'S3cr3tZ'); puts r.get\"", []string{"S3cr3tZ"}, []string{"'bob'", "puts r.get"}},
		{"ruby -rrest-client -e 'RestClient::Resource.new(url, user, \"S3cr3tZ\").get'", []string{"S3cr3tZ"}, []string{"url, user"}},
		{"ruby -e 'imap.authenticate(\"LOGIN\", \"bob\", \"S3cr3tZ\")'", []string{"S3cr3tZ"}, []string{"\"LOGIN\", \"bob\""}},
		{"ruby -e 'imap.authenticate(\"PLAIN\", \"bob\", \"S3cr3tZ\")'", []string{"S3cr3tZ"}, []string{"\"bob\""}},
		{"ruby -rnet/imap -e \"i=Net::IMAP.new('h', ssl: true); i.authenticate('CRAM-MD5', 'bob', 'S3cr3tZ')\"", []string{"S3cr3tZ"}, []string{"'CRAM-MD5', 'bob'"}},
		{"ruby -e 'imap.authenticate(:plain, \"bob\", \"S3cr3tZ\")'", []string{"S3cr3tZ"}, []string{"\"bob\""}},
		{"ruby -e 'smtp.authenticate(\"bob\", \"S3cr3tZ\", :login)'", []string{"S3cr3tZ"}, []string{"\"bob\""}},
		{"python3 -c 'g = github.Github(\"ghzzS3cr3tZ\")'", []string{"ghzzS3cr3tZ"}, []string{"github.Github("}},
		{"python3 -c 'from github import Github; g = Github(\"S3cr3tZ\"); print(g.get_user().login)'", []string{"S3cr3tZ"}, []string{"get_user().login"}},
		{"python3 -c 'g = Github(\"bob\", \"S3cr3tZ\")'", []string{"S3cr3tZ"}, []string{"\"bob\""}},
		{"python3 -c \"g = Github('S3cr3tZ', base_url='https://ghe/api/v3')\"", []string{"S3cr3tZ"}, []string{"base_url='https://ghe/api/v3'"}},
		{"python3 -c 'g = Github(auth=Auth.Token(\"S3cr3tZ\"))'", []string{"S3cr3tZ"}, nil},
		{"python3 -c 'g = Github(auth=github.Auth.Login(\"bob\", \"S3cr3tZ\"))'", []string{"S3cr3tZ"}, []string{"\"bob\""}},
		{"python3 -c 'g = Github(login_or_token=\"S3cr3tZ\")'", []string{"S3cr3tZ"}, nil},
		// Benign: no literal, other calls of the same names.
		{"python3 -c 'g = Github(os.environ[\"GH_TOKEN\"])'", nil, []string{"GH_TOKEN"}},
		{"ruby -e 'RestClient::Resource.new(\"https://x\").get'", nil, []string{"\"https://x\""}},
		{"python3 -c 'user = authenticate(request, \"bob\")'", nil, []string{"\"bob\""}},
		{"ruby -e 'x = Resource.new(\"a\", \"b\", \"c\")'", nil, []string{"\"a\", \"b\", \"c\""}},
	})
}
