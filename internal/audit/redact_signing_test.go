package audit

import "testing"

// TestRedactSigningKeys: a key that signs or encrypts, given as a call's
// literal argument in SQL or code, is redacted; the data, the algorithm
// and a key held in a variable are kept.
func TestRedactSigningKeys(t *testing.T) {
	checkCases(t, []spelling{
		{"SELECT AES_ENCRYPT('data', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"AES_ENCRYPT('data', '"}},
		{`mysql -e "SELECT aes_decrypt(col, 'S3cr3tZ') FROM t"`, []string{"S3cr3tZ"}, []string{"aes_decrypt(col, '", "FROM t"}},
		{"SELECT DES_ENCRYPT(\"data\", \"S3cr3tZ\")", []string{"S3cr3tZ"}, []string{`DES_ENCRYPT("data", "`}},
		{"SELECT pgp_sym_encrypt('data', 'S3cr3tZ', 'cipher-algo=aes256')", []string{"S3cr3tZ"}, []string{"'cipher-algo=aes256'"}},
		{`psql -c "SELECT pgp_sym_decrypt(col::bytea, 'S3cr3tZ') FROM t"`, []string{"S3cr3tZ"}, []string{"pgp_sym_decrypt(col::bytea, '"}},
		{"SELECT pgp_sym_decrypt_bytea(c, E'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"pgp_sym_decrypt_bytea(c, E'"}},
		{"SELECT ENCRYPTBYPASSPHRASE(N'S3cr3tZ', 'data')", []string{"S3cr3tZ"}, []string{"'data'"}},
		{"SELECT DecryptByPassPhrase('S3cr3tZ', col)", []string{"S3cr3tZ"}, []string{"col)"}},
		{"SELECT hmac('data', 'S3cr3tZ', 'sha256')", []string{"S3cr3tZ"}, []string{"'sha256'"}},
		{`python3 -c "import hmac,hashlib; print(hmac.new(b'S3cr3tZ', b'm', hashlib.sha256).hexdigest())"`, []string{"S3cr3tZ"}, []string{"b'm'"}},
		{`hmac.digest(b"S3cr3tZ", msg, "sha256")`, []string{"S3cr3tZ"}, []string{`"sha256"`}},
		{`mac := hmac.New(sha256.New, []byte("S3cr3tZ"))`, []string{"S3cr3tZ"}, []string{"hmac.New(sha256.New, []byte("}},
		{`node -e "require('crypto').createHmac('sha256', 'S3cr3tZ').update('m').digest('hex')"`, []string{"S3cr3tZ"}, []string{"update('m')"}},
		{"crypto.createCipheriv('aes-256-cbc', 'S3cr3tZ', iv)", []string{"S3cr3tZ"}, []string{"'aes-256-cbc'"}},
		{"crypto.createSecretKey('S3cr3tZ')", []string{"S3cr3tZ"}, []string{"createSecretKey('"}},
		{`php -r "echo hash_hmac('sha256', 'data', 'S3cr3tZ');"`, []string{"S3cr3tZ"}, []string{"'data'"}},
		{"openssl_encrypt($d, 'aes-256-cbc', 'S3cr3tZ', 0, $iv)", []string{"S3cr3tZ"}, []string{"'aes-256-cbc'"}},
		{`jwt.encode({"sub": "a"}, "S3cr3tZ", algorithm="HS256")`, []string{"S3cr3tZ"}, []string{`algorithm="HS256"`}},
		{"jwt.decode(tok, 'S3cr3tZ', algorithms=['HS256'])", []string{"S3cr3tZ"}, []string{"jwt.decode(tok, '"}},
		{"const t = jwt.sign({ sub: 1 }, 'S3cr3tZ', { expiresIn: '1h' })", []string{"S3cr3tZ"}, []string{"expiresIn: '1h'"}},
		{`jsonwebtoken.verify(token, "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`verify(token, "`}},
		{"JWT::encode($payload, 'S3cr3tZ', 'HS256')", []string{"S3cr3tZ"}, []string{"JWT::encode($payload, '", "'HS256'"}},
		{"$t = \\Firebase\\JWT\\JWT::decode($jwt, 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"JWT::decode($jwt, '"}},
		{"OpenSSL::HMAC.hexdigest('SHA256', 'S3cr3tZ', data)", []string{"S3cr3tZ"}, []string{"'SHA256'"}},
		{`new SecretKeySpec("S3cr3tZ".getBytes(), "HmacSHA256")`, []string{"S3cr3tZ"}, []string{`"HmacSHA256"`}},
		{`Algorithm.HMAC256("S3cr3tZ")`, []string{"S3cr3tZ"}, []string{"Algorithm.HMAC256("}},
		{"Fernet(b'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"Fernet(b'"}},
		{"AES.new(b'S3cr3tZ', AES.MODE_GCM)", []string{"S3cr3tZ"}, []string{"AES.MODE_GCM"}},
		{"URLSafeTimedSerializer('S3cr3tZ')", []string{"S3cr3tZ"}, []string{"URLSafeTimedSerializer('"}},
		// Kept: keys in variables, hashes and encodings without a key.
		{"jwt.sign(payload, process.env.JWT_SECRET)", nil, []string{"process.env.JWT_SECRET"}},
		{"hmac.new(key, msg, hashlib.sha256)", nil, []string{"hmac.new(key, msg, hashlib.sha256)"}},
		{"crypto.createHash('sha256').update('keep me')", nil, []string{"'keep me'"}},
		{"data.encode('utf-8'); json.decode('{}'); gpg.sign('keep me')", nil, []string{"'utf-8'", "'keep me'"}},
		{"SELECT AES_ENCRYPT(col, @key)", nil, []string{"@key"}},
	})
}
