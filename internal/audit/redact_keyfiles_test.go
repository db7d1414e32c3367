package audit

import "testing"

// TestRedactKeepsKeyFilePaths: a key named by its file's path (openssl
// -signkey k.pem, --private-key ~/.ssh/id_rsa, ssh_key=….pub) is where the
// key is kept, not the key; a key given inline still goes.
func TestRedactKeepsKeyFilePaths(t *testing.T) {
	checkCases(t, []spelling{
		{"openssl x509 -req -in r.csr -signkey k.pem -days 365", nil, []string{"-signkey k.pem -days 365"}},
		{"openssl rsa -inkey k.pem -pubout", nil, []string{"-inkey k.pem"}},
		{"tool --private-key ./deploy_key run", nil, []string{"--private-key ./deploy_key run"}},
		{"ansible-playbook --private-key ~/.ssh/id_rsa site.yml", nil, []string{"~/.ssh/id_rsa site.yml"}},
		{"terraform apply -var ssh_key=~/.ssh/id_rsa.pub", nil, []string{"ssh_key=~/.ssh/id_rsa.pub"}},
		{"tool --signing-key=/etc/keys/sign.pem", nil, []string{"=/etc/keys/sign.pem"}},
		// Inline keys still go.
		{"tool --private-key S3cr3tZabcdef run", []string{"S3cr3tZ"}, []string{" run"}},
		{"export API_KEY=S3cr3tZ", []string{"S3cr3tZ"}, []string{"API_KEY="}},
		{"tool --api-key=S3cr3tZ.pem1", []string{"S3cr3tZ"}, []string{"--api-key="}},
	})
}

// TestRedactKeepsSecretReferences: --secret given a build or service
// secret's reference (id=…,src=…; source=…,target=…) names where the
// secret is read from; a --secret given the secret itself still loses it.
func TestRedactKeepsSecretReferences(t *testing.T) {
	checkCases(t, []spelling{
		{"docker buildx build --secret id=npm,src=/root/.npmrc .", nil, []string{"--secret id=npm,src=/root/.npmrc ."}},
		{"docker service create --secret source=db_pw,target=pw app", nil, []string{"source=db_pw,target=pw"}},
		{`docker build --secret "id=x,env=TOKEN" .`, nil, []string{`"id=x,env=TOKEN"`}},
		{"tool --secret S3cr3tZ", []string{"S3cr3tZ"}, []string{"tool --secret "}},
		{"tool --secret=S3cr3tZ", []string{"S3cr3tZ"}, []string{"--secret="}},
	})
}
