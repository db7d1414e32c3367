package audit

import "testing"

// TestRedactTypedDeclarations: a secret-named variable declared with its
// type before the value loses the value, not the type, in every language
// that writes it so; the name and type stay readable.
func TestRedactTypedDeclarations(t *testing.T) {
	checkCases(t, []spelling{
		{"const password: string = 'S3cr3tZ';", []string{"S3cr3tZ"}, []string{"const password: string = '"}},
		{"private readonly apiKey: string = \"S3cr3tZ\";", []string{"S3cr3tZ"}, []string{"apiKey: string = \""}},
		{"let dbPassword: string | undefined = 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"dbPassword: string | undefined = '"}},
		{"val password: String = \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"val password: String = \""}},
		{"let password: String = \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"let password: String"}},
		{"val dbPassword: Option[String] = Some(\"S3cr3tZ\")", []string{"S3cr3tZ"}, []string{"dbPassword: Option[String] ="}},
		{"PASSWORD: str = 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"PASSWORD: str = '"}},
		{"api_token: Final[str] = 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"api_token: Final[str] = '"}},
		{"let password: &str = \"S3cr3tZ\";", []string{"S3cr3tZ"}, []string{"let password: &str = \""}},
		{"const API_TOKEN: &'static str = \"S3cr3tZ\";", []string{"S3cr3tZ"}, []string{"API_TOKEN: &'static str = \""}},
		{"static SECRET_KEY: [u8; 8] = *b\"S3cr3tZ!\";", []string{"S3cr3tZ"}, []string{"SECRET_KEY: [u8; 8] ="}},
		{"var dbPassword string = \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"var dbPassword string = \""}},
		{"const apiToken string = `S3cr3tZ`", []string{"S3cr3tZ"}, []string{"const apiToken string = "}},
		{"var (\n\tdbPassword string = \"S3cr3tZ\"\n\tport = 5432\n)", []string{"S3cr3tZ"}, []string{"dbPassword string = \"", "port = 5432"}},
		{"char password[] = \"S3cr3tZ\";", []string{"S3cr3tZ"}, []string{"char password[] = \""}},
		{"static char api_key[64] = \"S3cr3tZ\";", []string{"S3cr3tZ"}, []string{"api_key[64] = \""}},
		{"#define DB_PASSWORD \"S3cr3tZ\"\n#define PORT 5432", []string{"S3cr3tZ"}, []string{"#define DB_PASSWORD \"", "#define PORT 5432"}},
		{"#define API_TOKEN S3cr3tZ", []string{"S3cr3tZ"}, []string{"#define API_TOKEN"}},
		{"cat > src/config.ts <<'EOF'\nexport const adminPassword: string = \"S3cr3tZ\";\nEOF", []string{"S3cr3tZ"}, []string{"adminPassword: string = \""}},
		// Not declarations: a comparison, a YAML value with no type,
		// a password setting whose value is a word.
		{"if (password: string == other) {}", nil, []string{"== other) {}"}},
		{"password_policy: strict\nmin_length: 12", nil, []string{"password_policy: strict"}},
		{"var passwordLength int = 12", nil, []string{"var passwordLength int = 12"}},
	})
}
