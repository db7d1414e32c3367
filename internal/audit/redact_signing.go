package audit

import "strings"

// Keys that sign or encrypt, given as a call's literal argument: SQL's
// AES_ENCRYPT(data, 'key') and pgp_sym_encrypt(data, 'pw'), an HMAC's or
// a JWT's secret (hmac.new(b'key', …), crypto.createHmac('sha256',
// 'key'), jwt.sign(payload, 'key')), a cipher's key (AES.new(b'key', …),
// Fernet(b'key'), createCipheriv(alg, 'key', iv)). Whoever holds one
// forges tokens or reads the data, as with a password.

// signingKeyArg returns which argument of the call named lname on the
// receiver recv (as written, for the case that tells Go from Python) is
// its key, or -1. s[j] is the call's '('.
func signingKeyArg(s string, j int, lname, recv string) int {
	lrecv := strings.ToLower(recv)
	switch lname {
	case "aes_encrypt", "aes_decrypt", "des_encrypt", "des_decrypt",
		"pgp_sym_encrypt", "pgp_sym_decrypt", "pgp_sym_encrypt_bytea", "pgp_sym_decrypt_bytea":
		return 1 // SQL: (data, key)
	case "encryptbypassphrase", "decryptbypassphrase":
		return 0 // SQL Server: (passphrase, data)
	case "createhmac", "createcipheriv", "createdecipheriv", "createsecretkey":
		if lname == "createsecretkey" {
			return 0 // Node: crypto.createSecretKey(key)
		}
		return 1 // Node: (algorithm, key[, iv])
	case "hash_hmac", "openssl_encrypt", "openssl_decrypt":
		return 2 // PHP: (algo, data, key), (data, method, key)
	case "secretkeyspec", "hmac256", "hmac384", "hmac512", "fernet", "urlsafetimedserializer", "timestampsigner", "signer", "multifernet":
		return 0 // Java's SecretKeySpec("k".getBytes(), …), java-jwt's Algorithm.HMAC256("k"), Python's Fernet, itsdangerous
	case "hmac":
		if recv == "" {
			return 1 // pgcrypto's hmac(data, key, type)
		}
	case "new", "digest", "hexdigest":
		switch {
		case recv == "HMAC":
			return 1 // Ruby's OpenSSL::HMAC.hexdigest(digest, key, data)
		case recv == "hmac" && s[j-3:j] == "New":
			return 1 // Go's hmac.New(sha256.New, []byte("key"))
		case recv == "hmac":
			return 0 // Python's hmac.new(key, msg, …), hmac.digest(key, …)
		case lname == "new" && (lrecv == "aes" || lrecv == "des" || lrecv == "des3" || lrecv == "blowfish" ||
			lrecv == "chacha20" || lrecv == "salsa20" || lrecv == "arc4" || lrecv == "chacha20_poly1305"):
			return 0 // PyCryptodome's AES.new(key, mode)
		}
	case "encode", "decode", "sign", "verify":
		if strings.Contains(lrecv, "jwt") || strings.Contains(lrecv, "jose") || strings.Contains(lrecv, "jsonwebtoken") {
			return 1 // jwt.encode(payload, key), jwt.sign(payload, key), JWT::encode($p, $key)
		}
	}
	return -1
}
