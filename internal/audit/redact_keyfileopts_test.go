package audit

import "testing"

// TestRedactKeyFileOptionsKept: an option named for a key whose value is
// always where the key is kept (openssl -inkey, ansible --private-key,
// docker --tlskey) keeps its file's name in the record however the file
// is named, behind sudo too; openssl's secret options, and a key given
// itself elsewhere, still go.
func TestRedactKeyFileOptionsKept(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"openssl rsa -in key.pem -inkey k -out x", nil, []string{"-inkey k -out x"}},
		{"openssl pkeyutl -sign -inkey priv -in data -out sig", nil, []string{"-inkey priv -in data"}},
		{"openssl smime -sign -signer me -inkey mykey -in m", nil, []string{"-inkey mykey -in m"}},
		{"openssl x509 -req -in c.csr -CA ca -CAkey cakey -CAcreateserial", nil, []string{"-CAkey cakey -CAcreateserial"}},
		{"openssl req -x509 -newkey rsa:2048 -keyout mykey -out cert -nodes", nil, []string{"-newkey rsa:2048 -keyout mykey -out cert"}},
		{"openssl x509 -signkey key -in c -out d", nil, []string{"-signkey key -in c"}},
		{"sudo openssl rsa -inkey server -pubout", nil, []string{"-inkey server -pubout"}},
		{"/usr/bin/openssl rsa -inkey=server -pubout", nil, []string{"-inkey=server -pubout"}},
		{"ansible-playbook -i hosts --private-key id_ed25519 site.yml", nil, []string{"--private-key id_ed25519 site.yml"}},
		{"ansible all -m ping --private-key=deploy", nil, []string{"--private-key=deploy"}},
		{"docker --tlskey key --tlscert cert ps", nil, []string{"--tlskey key --tlscert"}},
		// Still secret.
		{"openssl ca -key S3cr3tZ -in c.csr", []string{"S3cr3tZ"}, []string{"-in c.csr"}},
		{"openssl enc -aes-256-cbc -k S3cr3tZ -in a -out b", []string{"S3cr3tZ"}, []string{"-in a -out b"}},
		{"openssl pkcs12 -export -inkey k.pem -passout pass:S3cr3tZ -out c.p12", []string{"S3cr3tZ"}, []string{"-inkey k.pem", "-out c.p12"}},
		{"cast send --private-key 0xS3cr3tZ 0xabc", []string{"S3cr3tZ"}, []string{"cast send --private-key"}},
		{"tool --inkey S3cr3tZ run", []string{"S3cr3tZ"}, []string{"tool --inkey"}},
	})
}
