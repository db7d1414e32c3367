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

// TestRedactUnpackedAssignments: an assignment that unpacks values into
// several names gives a secret-named one the value at its own place;
// that value goes, the others (the user name) stay.
func TestRedactUnpackedAssignments(t *testing.T) {
	checkCases(t, []spelling{
		{"user, password = 'bob', 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"user, password = 'bob', '"}},
		{"password, user = 'S3cr3tZ', 'bob'", []string{"S3cr3tZ"}, []string{"', 'bob'"}},
		{"(user, password) = ('bob', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"(user, password) = ('bob', '"}},
		{"host, user, db_pass = \"h\", \"bob\", \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{`"h", "bob", "`}},
		{"user, password := \"bob\", \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{`user, password := "bob", "`}},
		{"const [user, apiToken] = ['bob', 'S3cr3tZ'];", []string{"S3cr3tZ"}, []string{"const [user, apiToken] = ['bob', '"}},
		{"let (user, password) = (\"bob\", \"S3cr3tZ\");", []string{"S3cr3tZ"}, []string{`("bob", "`}},
		{"my ($user, $password) = ('bob', 'S3cr3tZ');", []string{"S3cr3tZ"}, []string{"('bob', '"}},
		{"DB_USER, DB_PASSWORD = os.environ.get('U', 'bob'), 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"os.environ.get('U', 'bob'), '"}},
		{"python3 -c \"import ftplib; u, pw = 'bob', 'S3cr3tZ'; f = ftplib.FTP('h'); f.login(u, pw)\"", []string{"S3cr3tZ"}, []string{"u, pw = 'bob', '", "f.login(u, pw)"}},
		// A bare value at the secret's place may be the literal.
		{"user, password = 'bob', S3cr3tZ", []string{"S3cr3tZ"}, []string{"user, password = 'bob', "}},
		// Fewer values than names: read as a plain key=value.
		{"0, password=S3cr3tZ", []string{"S3cr3tZ"}, []string{"0, password="}},
		{"user, password = get_login()\npassword = 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"user, password = get_login()"}},
		// A call's keyword argument is still its own.
		{"c = connect(host, user, password='S3cr3tZ')", []string{"S3cr3tZ"}, []string{"connect(host, user, password='"}},
		// No secret among the names: all stays.
		{"user, host = 'bob', 'db1'\nprint(user, password, sep='')", nil, []string{"user, host = 'bob', 'db1'", "print(user, password, sep='')"}},
	})
}

// TestRedactUnpackedKeepsPairs: comma-separated key=value pairs are no
// unpacking; each keeps its own value's rule.
func TestRedactUnpackedKeepsPairs(t *testing.T) {
	checkCases(t, []spelling{
		{"mount -t cifs -o username=bob,password=S3cr3tZ,uid=0 //nas/s /mnt", []string{"S3cr3tZ"}, []string{"username=bob,password=", "//nas/s /mnt"}},
		{`{"command": "ls", password=S3cr3tZ`, []string{"S3cr3tZ"}, []string{`"command": "ls", password=`}},
		{"a=1, token=S3cr3tZ", []string{"S3cr3tZ"}, []string{"a=1, token="}},
	})
}
