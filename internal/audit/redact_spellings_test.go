package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// spelling is one command that carries a secret (every part of it in
// secret must be gone) and the words around it that must stay readable.
type spelling struct {
	in     string
	secret []string
	keep   []string
}

func checkSpellings(t *testing.T, tests []spelling) {
	t.Helper()
	for _, tt := range tests {
		got := Redact(tt.in)
		for _, s := range tt.secret {
			if strings.Contains(got, s) {
				t.Errorf("Redact(%q) = %q: still contains %q", tt.in, got, s)
			}
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("Redact(%q) = %q: lost %q", tt.in, got, k)
			}
		}
		if len(tt.secret) == 0 && len(tt.keep) == 0 {
			t.Errorf("%q checks nothing", tt.in)
		}
	}
}

// TestRedactLineContinuations: a backslash before a line end joins the
// next line to the command, as bash does, so the program's options on
// the next lines are read by its rules, and an option's value may follow
// on the next line; an escaped backslash before a line end ends the
// command.
func TestRedactLineContinuations(t *testing.T) {
	checkSpellings(t, []spelling{
		{"curl \\\n  -u bob:S3cr3tZ \\\n  https://x", []string{"S3cr3tZ"}, []string{"-u bob:", "\\\n  https://x"}},
		{"curl -sS \\\n  --user bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"--user bob:"}},
		{"curl -X POST \\\n\t-u bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"-u bob:"}},
		{"curl -u \\\n bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"sshpass \\\n  -p S3cr3tZ \\\n  ssh h", []string{"S3cr3tZ"}, []string{"ssh h"}},
		{"sshpass -p \\\n  S3cr3tZ ssh -p 22 h", []string{"S3cr3tZ"}, []string{"ssh -p 22 h"}},
		{"htpasswd -b \\\n  f bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"f bob"}},
		{"htpasswd -b f \\\n bob S3cr3tZ && ls", []string{"S3cr3tZ"}, []string{"bob", "&& ls"}},
		{"docker login \\\n  -u bob \\\n  -p S3cr3tZ \\\n  registry.example", []string{"S3cr3tZ"}, []string{"-u bob", "registry.example"}},
		{"mysql -uroot \\\n  -pS3cr3tZ shop", []string{"S3cr3tZ"}, []string{"-uroot", "shop"}},
		// An escaped backslash is no continuation: the next line is
		// another command, whose -p is a port.
		{"sshpass -p S3cr3tZ ssh h ls x\\\\\ndocker run -p 8080:80 nginx", []string{"S3cr3tZ"}, []string{"docker run -p 8080:80 nginx"}},
		{"docker login -p S3cr3tZ r\ndocker run \\\n  -p 8080:80 nginx", []string{"S3cr3tZ"}, []string{"-p 8080:80 nginx"}},
	})
}

// TestRedactArgsSecretStdin: the stdin text run_command and run_script
// write to a command that reads a secret there (or writes its input into
// a credential file) is redacted as a whole, as a here-string to the same
// command would be; other stdin texts stay. What reaches chpasswd as it is
// keeps each line's name (TestRedactStdinUserLines); what a pipe may
// reorder on the way goes whole.
func TestRedactArgsSecretStdin(t *testing.T) {
	for _, in := range []string{
		`{"command":"tr , : | chpasswd","stdin":"bob,S3cr3tZ"}`,
		`{"stdin":"bob:S3cr3tZ","command":"sudo -S chpasswd"}`,
		`{"command":"docker login -u bob --password-stdin registry.example","stdin":"S3cr3tZ"}`,
		`{"command":"sudo -S apt-get update","stdin":"S3cr3tZ\n"}`,
		`{"command":"passwd --stdin bob","stdin":"S3cr3tZ"}`,
		`{"command":"htpasswd -i /etc/nginx/htpasswd bob","stdin":"S3cr3tZ"}`,
		`{"command":"gh auth login --with-token","stdin":"S3cr3tZ"}`,
		`{"command":"kinit bob@EXAMPLE.ORG","stdin":"S3cr3tZ"}`,
		`{"command":"vault login -","stdin":"S3cr3tZ"}`,
		`{"command":"cryptsetup open /dev/sdb1 data","stdin":"S3cr3tZ"}`,
		`{"command":"openssl rsa -passin stdin -in k","stdin":"S3cr3tZ"}`,
		`{"command":"restic --password-file=- snapshots","stdin":"S3cr3tZ"}`,
		`{"command":"smbpasswd -s -a bob","stdin":"S3cr3tZ\nS3cr3tZ\n"}`,
		`{"command":"curl -K - https://x","stdin":"user = bob:S3cr3tZ"}`,
		`{"command":"cat > ~/.pgpass","stdin":"db:5432:*:app:S3cr3tZ"}`,
		`{"script":"set -e\nchpasswd\n","stdin":"bob:S3cr3tZ"}`,
		`{"command":"sudo -S -v","Stdin":"S3cr3tZ"}`,
		// Without a terminal, mysql -p and psql -W read the password
		// they ask for on their input.
		`{"command":"mysql -u root -p shop","stdin":"S3cr3tZ"}`,
		`{"command":"mysqldump -u root --password shop","stdin":"S3cr3tZ"}`,
		`{"command":"psql -h db -U app -W","stdin":"S3cr3tZ"}`,
		`{"command":"pg_dump -W -h db shop","stdin":"S3cr3tZ"}`,
	} {
		got := string(RedactArgs(json.RawMessage(in), 0))
		if strings.Contains(got, "S3cr3tZ") {
			t.Errorf("RedactArgs(%s) = %s: the stdin secret survives", in, got)
		}
		if !strings.Contains(strings.ToLower(got), `"stdin":"[redacted]"`) {
			t.Errorf("RedactArgs(%s) = %s: want the stdin key kept, its value redacted", in, got)
		}
	}
	for _, in := range []string{
		`{"command":"grep -c x","stdin":"hello x"}`,
		`{"command":"cat > notes.txt","stdin":"hello"}`,
		`{"command":"mysql -u root shop","stdin":"select 1;"}`,
		`{"command":"psql -h db","stdin":"select 1;"}`,
		`{"command":"chpasswd","x":{"stdin":"kept"}}`,
	} {
		if got := string(RedactArgs(json.RawMessage(in), 0)); got != in {
			t.Errorf("RedactArgs(%s) = %s, want it unchanged", in, got)
		}
	}
	// The same rule on a here-string and a pipe.
	checkSpellings(t, []spelling{
		{"echo S3cr3tZ | mysql -u root -p shop", []string{"S3cr3tZ"}, []string{"| mysql -u root -p shop"}},
		{"psql -W -h db <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"psql -W -h db <<<"}},
	})
}

// TestRedactOptionAbbreviations: GNU getopt_long (wget, most GNU tools),
// MySQL's and gpg's option parsers take any unambiguous prefix of a long
// option, so a shortened credential option carries the secret too.
func TestRedactOptionAbbreviations(t *testing.T) {
	checkSpellings(t, []spelling{
		{"wget --passwo=S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"wget --passwo=", "https://x"}},
		{"wget --http-passwor=S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"--http-passwor="}},
		{"wget --ftp-passwo S3cr3tZ ftp://x", []string{"S3cr3tZ"}, []string{"ftp://x"}},
		{"mysql --passwor=S3cr3tZ shop", []string{"S3cr3tZ"}, []string{"shop"}},
		{"mysqldump --passwo='S3cr3tZ' shop", []string{"S3cr3tZ"}, []string{"shop"}},
		{"gpg --batch --passphr S3cr3tZ -d f", []string{"S3cr3tZ"}, []string{"-d f"}},
		{"gpg --passp=S3cr3tZ -c f", []string{"S3cr3tZ"}, []string{"-c f"}},
		{"tool --toke S3cr3tZ run", []string{"S3cr3tZ"}, []string{"run"}},
		{"tool --client-secr=S3cr3tZ run", []string{"S3cr3tZ"}, []string{"run"}},
		{"tool --credenti S3cr3tZ run", []string{"S3cr3tZ"}, []string{"run"}},
		// Words that start alike but abbreviate none stay.
		{"ftp --passive host1", nil, []string{"ftp --passive host1"}},
		{"tool --secure host1 --tok x", nil, []string{"tool --secure host1 --tok x"}},
		{"wget --pas x", nil, []string{"wget --pas x"}},
	})
}

// TestRedactCredentialPairs: a user name and password held together under
// a name that is no credential word — a proxy without a scheme, etcdctl's
// and Samba's user variables, mount.cifs's and curlftpfs's user= — lose
// the password and keep the user and host, in commands and in the env map.
func TestRedactCredentialPairs(t *testing.T) {
	checkSpellings(t, []spelling{
		{"https_proxy=bob:S3cr3tZ@proxy:3128 curl https://x", []string{"S3cr3tZ"}, []string{"https_proxy=bob:", "@proxy:3128 curl https://x"}},
		{"export HTTPS_PROXY=bob:S3cr3tZ@proxy:3128", []string{"S3cr3tZ"}, []string{"HTTPS_PROXY=bob:", "@proxy:3128"}},
		{"env all_proxy='bob:S3cr3tZ@proxy:1080' wget x", []string{"S3cr3tZ"}, []string{"@proxy:1080' wget x"}},
		{"wget -e http_proxy=bob:S3cr3tZ@proxy:3128 https://x", []string{"S3cr3tZ"}, []string{"@proxy:3128 https://x"}},
		{"pip install --proxy bob:S3cr3tZ@proxy:3128 requests", []string{"S3cr3tZ"}, []string{"--proxy bob:", "@proxy:3128 requests"}},
		{"pip install --proxy=bob:S3cr3tZ@proxy:3128 x", []string{"S3cr3tZ"}, []string{"@proxy:3128 x"}},
		{"git config --global http.proxy bob:S3cr3tZ@proxy:3128", []string{"S3cr3tZ"}, []string{"http.proxy bob:", "@proxy:3128"}},
		{"npm config set https-proxy bob:S3cr3tZ@proxy:3128", []string{"S3cr3tZ"}, []string{"@proxy:3128"}},
		{"BW_SESSION=S3cr3tZ bw list items", []string{"S3cr3tZ"}, []string{"BW_SESSION=", "bw list items"}},
		{"export OP_SESSION_my=S3cr3tZ", []string{"S3cr3tZ"}, []string{"OP_SESSION_my="}},
		{"DESKTOP_SESSION=gnome XDG_SESSION_TYPE=x11 startx", nil, []string{"DESKTOP_SESSION=gnome XDG_SESSION_TYPE=x11 startx"}},
		{"ETCDCTL_USER=root:S3cr3tZ etcdctl get /x", []string{"S3cr3tZ"}, []string{"ETCDCTL_USER=root:", "etcdctl get /x"}},
		{"USER=bob%S3cr3tZ smbclient //nas/share", []string{"S3cr3tZ"}, []string{"USER=bob%", "smbclient //nas/share"}},
		{"mount -t cifs -o username=bob%S3cr3tZ,uid=0 //nas/s /mnt", []string{"S3cr3tZ"}, []string{"username=bob%", ",uid=0 //nas/s /mnt"}},
		{"mount.cifs //nas/s /mnt -o user=bob%S3cr3tZ", []string{"S3cr3tZ"}, []string{"user=bob%"}},
		{"curlftpfs -o user=bob:S3cr3tZ,allow_other ftp.example /mnt", []string{"S3cr3tZ"}, []string{"user=bob:", ",allow_other ftp.example /mnt"}},
		// A proxy with no password, a user without one and a URL-encoded
		// user= elsewhere stay.
		{"https_proxy=proxy:3128 no_proxy=localhost,.corp curl x", nil, []string{"https_proxy=proxy:3128 no_proxy=localhost,.corp curl x"}},
		{"git config http.proxy http://proxy:3128", nil, []string{"git config http.proxy http://proxy:3128"}},
		{"mount -o user=bob,uid=0 //nas/s /mnt", nil, []string{"mount -o user=bob,uid=0 //nas/s /mnt"}},
		{"curl 'https://x/?user=bob%40x.org'", nil, []string{"user=bob%40x.org"}},
		{"USER=bob make", nil, []string{"USER=bob make"}},
	})
	in := `{"command":"curl x","env":{"https_proxy":"bob:S3cr3tZ@proxy:3128","ETCDCTL_USER":"root:S3cr3tY","USER":"bob%S3cr3tX","NO_PROXY":"a,b"}}`
	got := string(RedactArgs(json.RawMessage(in), 0))
	for _, sec := range []string{"S3cr3tZ", "S3cr3tY", "S3cr3tX"} {
		if strings.Contains(got, sec) {
			t.Errorf("RedactArgs(%s) = %s: %q survives", in, got, sec)
		}
	}
	for _, k := range []string{`"https_proxy":"bob:[REDACTED]@proxy:3128"`, `"ETCDCTL_USER":"root:[REDACTED]"`, `"NO_PROXY":"a,b"`} {
		if !strings.Contains(got, k) {
			t.Errorf("RedactArgs(%s) = %s: lost %s", in, got, k)
		}
	}
}

// TestRedactQuotedNames: bash removes quotes and backslashes from an
// option's or a variable's name before the program reads it, so a name
// quoted or escaped in part or whole is read as the joined name; the
// program name's alias-free spelling \curl names it too.
func TestRedactQuotedNames(t *testing.T) {
	checkSpellings(t, []spelling{
		{`curl '--user' 'bob:S3cr3tZ' https://x`, []string{"S3cr3tZ"}, []string{`'--user' 'bob:`, "https://x"}},
		{`curl "-u" "bob:S3cr3tZ" https://x`, []string{"S3cr3tZ"}, []string{`"-u" "bob:`}},
		{`curl --u\ser bob:S3cr3tZ https://x`, []string{"S3cr3tZ"}, []string{"bob:", "https://x"}},
		{`curl --us""er=bob:S3cr3tZ https://x`, []string{"S3cr3tZ"}, []string{"bob:"}},
		{`curl -\u bob:S3cr3tZ https://x`, []string{"S3cr3tZ"}, []string{"bob:"}},
		{`sshpass "-p" S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{"ssh h"}},
		{`docker login '--password' S3cr3tZ registry.example`, []string{"S3cr3tZ"}, []string{"registry.example"}},
		{`wget --pass\word=S3cr3tZ https://x`, []string{"S3cr3tZ"}, []string{"https://x"}},
		{`tool --api"-"key S3cr3tZ run`, []string{"S3cr3tZ"}, []string{"run"}},
		{`tool '--token=S3cr3tZ' run`, []string{"S3cr3tZ"}, []string{"run"}},
		{`env PG"PASS"WORD=S3cr3tZ psql`, []string{"S3cr3tZ"}, []string{"psql"}},
		{`export PG'PASS'WORD=S3cr3tZ; psql`, []string{"S3cr3tZ"}, []string{"; psql"}},
		{`docker run -e DB_"PASSWORD"=S3cr3tZ img`, []string{"S3cr3tZ"}, []string{"img"}},
		{`\curl -u bob:S3cr3tZ https://x`, []string{"S3cr3tZ"}, []string{"bob:"}},
		{`sudo \sshpass -p S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{"ssh h"}},
		// Quoted names that name no secret keep their values.
		{`curl '--url' 'https://x' "-o" out`, nil, []string{`curl '--url' 'https://x' "-o" out`}},
		{`env "LANG"=C 'HOME'=/root ls`, nil, []string{`env "LANG"=C 'HOME'=/root ls`}},
		{`docker run '-p' 8080:80 nginx`, nil, []string{`docker run '-p' 8080:80 nginx`}},
		{`echo "--no-password" x`, nil, []string{`echo "--no-password" x`}},
	})
}

// TestRedactOptionClusters: the MySQL clients, zip and unzip take short
// options in clusters, where the password option comes after flags
// (mysql -BpSECRET, zip -rP SECRET); a letter that takes a value ends the
// cluster, so a host or user that holds the option's letter stays.
func TestRedactOptionClusters(t *testing.T) {
	checkSpellings(t, []spelling{
		{"mysql -BpS3cr3tZ shop", []string{"S3cr3tZ"}, []string{"mysql -Bp", "shop"}},
		{"mysql -Bp'S3cr3tZ' shop", []string{"S3cr3tZ"}, []string{"shop"}},
		{"mysqldump -qpS3cr3tZ shop", []string{"S3cr3tZ"}, []string{"shop"}},
		{"mariadb -NBspS3cr3tZ -e 'select 1'", []string{"S3cr3tZ"}, []string{"select 1"}},
		{"mysqladmin -fpS3cr3tZ status", []string{"S3cr3tZ"}, []string{"status"}},
		{"zip -rP S3cr3tZ out.zip dir", []string{"S3cr3tZ"}, []string{"-rP", "out.zip dir"}},
		{"zip -9rP S3cr3tZ out.zip dir", []string{"S3cr3tZ"}, []string{"out.zip dir"}},
		{"zip -rPS3cr3tZ out.zip dir", []string{"S3cr3tZ"}, []string{"out.zip dir"}},
		{"unzip -oP S3cr3tZ f.zip", []string{"S3cr3tZ"}, []string{"-oP", "f.zip"}},
		{"unzip -qoP 'S3cr3tZ' f.zip -d /srv", []string{"S3cr3tZ"}, []string{"f.zip -d /srv"}},
		// mysql -Bp asks for the password: the next word is the database.
		{"mysql -Bp shop", nil, []string{"mysql -Bp shop"}},
		{"echo S3cr3tY | mysql -Bp shop", []string{"S3cr3tY"}, []string{"| mysql -Bp shop"}},
		// A value-taking letter ends the cluster: -h's host, -u's user.
		{"mysql -hexample.com -upostgres shop", nil, []string{"mysql -hexample.com -upostgres shop"}},
		{"zip -b /tmp/up -r out.zip dir", nil, []string{"zip -b /tmp/up -r out.zip dir"}},
		{"unzip -d /srv/pub f.zip", nil, []string{"unzip -d /srv/pub f.zip"}},
	})
}

// TestRedactMoreProgramOptions: more programs' own password options and
// positionals — registry logins, container pulls, database, IPMI, SNMPv3,
// archive and secret-store clients — keep their other words.
func TestRedactMoreProgramOptions(t *testing.T) {
	checkSpellings(t, []spelling{
		{"cosign login r.example -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"-u bob -p"}},
		{"notation login -u bob -p S3cr3tZ r.example", []string{"S3cr3tZ"}, []string{"r.example"}},
		{"gcrane auth login r.example -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"oras pull r.example/a:1 -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"r.example/a:1 -u bob"}},
		{"ctr images pull --user bob:S3cr3tZ r.example/a", []string{"S3cr3tZ"}, []string{"--user bob:", "r.example/a"}},
		{"ctr -n k8s.io i pull -u bob:S3cr3tZ r/a", []string{"S3cr3tZ"}, []string{"-u bob:"}},
		{"oc login -u dev -p S3cr3tZ https://api:6443", []string{"S3cr3tZ"}, []string{"-u dev", "https://api:6443"}},
		{"kubeadm token create S3cr3tZ --ttl 1h", []string{"S3cr3tZ"}, []string{"--ttl 1h"}},
		{"microk8s join 10.0.0.1:25000/S3cr3tZ", []string{"S3cr3tZ"}, []string{"10.0.0.1:25000/"}},
		{"etcdctl user add bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"user add bob:"}},
		{"mydumper -u root -p S3cr3tZ -o /backup", []string{"S3cr3tZ"}, []string{"-o /backup"}},
		{"pt-table-checksum h=db,u=root,p=S3cr3tZ,P=3306", []string{"S3cr3tZ"}, []string{"u=root,p=", ",P=3306"}},
		{"isql -v shopdsn bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"shopdsn bob"}},
		{"osql -S db -U sa -P S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"sqlcl scott/S3cr3tZ@db", []string{"S3cr3tZ"}, []string{"scott/", "@db"}},
		{"db2 connect to shop user bob using S3cr3tZ", []string{"S3cr3tZ"}, []string{"user bob using"}},
		{"influx setup -u admin -p S3cr3tZ -o org -b b -t S3cr3tY -f", []string{"S3cr3tZ", "S3cr3tY"}, []string{"-o org -b b"}},
		{"influx query -t S3cr3tZ 'from(bucket:\"b\")'", []string{"S3cr3tZ"}, nil},
		{"neo4j-admin dbms set-initial-password S3cr3tZ", []string{"S3cr3tZ"}, []string{"set-initial-password"}},
		{"cypher-shell -u neo4j -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"-u neo4j"}},
		{"couchbase-cli bucket-list -c h -u a -p S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"redis-benchmark -h cache -a S3cr3tZ -q", []string{"S3cr3tZ"}, []string{"-q"}},
		{"redis-cli ACL SETUSER bob on '>S3cr3tZ' '~*' +@all", []string{"S3cr3tZ"}, []string{"'~*' +@all"}},
		{"ipmitool -H bmc -U admin -P S3cr3tY lan set 1 password S3cr3tZ", []string{"S3cr3tZ", "S3cr3tY"}, []string{"lan set 1 password"}},
		{"ipmitool user set password 2 S3cr3tZ", []string{"S3cr3tZ"}, []string{"user set password 2"}},
		{"ipmi-sensors -h bmc -u admin -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"-u admin"}},
		{"ipmiconsole -h bmc -u admin -p S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"snmpwalk -v3 -u mon -3m 0xS3cr3tZ -3x 0xS3cr3tY sw", []string{"S3cr3tZ", "S3cr3tY"}, []string{"sw"}},
		{"net rpc password bob S3cr3tZ -U admin%S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"password bob"}},
		{"samba-tool user create bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"user create bob"}},
		{"openssl ca -key S3cr3tZ -config ca.cnf", []string{"S3cr3tZ"}, []string{"-config ca.cnf"}},
		{"unar -password S3cr3tZ x.rar", []string{"S3cr3tZ"}, []string{"x.rar"}},
		{"unar -p S3cr3tZ x.rar", []string{"S3cr3tZ"}, []string{"x.rar"}},
		{"funzip -S3cr3tZ f.zip", []string{"S3cr3tZ"}, []string{"f.zip"}},
		{"ccrypt -K S3cr3tZ f", []string{"S3cr3tZ"}, nil},
		{"veracrypt -t -p S3cr3tZ --mount v /m", []string{"S3cr3tZ"}, []string{"--mount v /m"}},
		{"pdftk in.pdf output out.pdf user_pw S3cr3tZ owner_pw S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"output out.pdf"}},
		{"ab -A bob:S3cr3tZ -n 10 http://x/", []string{"S3cr3tZ"}, []string{"-A bob:", "http://x/"}},
		{"swaks --to x@y -au bob -ap S3cr3tZ", []string{"S3cr3tZ"}, []string{"-au bob"}},
		{"medusa -h h -u bob -p S3cr3tZ -M ssh", []string{"S3cr3tZ"}, []string{"-M ssh"}},
		{"vault operator unseal S3cr3tZ", []string{"S3cr3tZ"}, []string{"operator unseal"}},
		{"vault unwrap S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"vault token create -id=S3cr3tZ -policy=x", []string{"S3cr3tZ"}, []string{"-policy=x"}},
		{"vault kv put -mount=secret db user=bob value=S3cr3tZ", []string{"S3cr3tZ"}, []string{"-mount=secret db user="}},
		{"glab variable set DB_KEY S3cr3tZ --masked", []string{"S3cr3tZ"}, []string{"DB_KEY", "--masked"}},
		{"echo S3cr3tZ | sshfs -o password_stdin bob@h:/ /mnt", []string{"S3cr3tZ"}, []string{"sshfs -o password_stdin"}},
		// Redis AUTH typed into redis-cli or fed to it.
		{"redis-cli <<EOF\nAUTH default S3cr3tZ\nPING\nEOF", []string{"S3cr3tZ"}, []string{"AUTH", "PING"}},
		{"AUTH S3cr3tZ", []string{"S3cr3tZ"}, []string{"AUTH"}},
		// The same programs' other words stay.
		{"cat > /etc/pam.d/x <<EOF\nauth required pam_unix.so\nEOF", nil, []string{"auth required pam_unix.so"}},
		{"ipmitool lan set 1 ipaddr 10.0.0.5", nil, []string{"ipmitool lan set 1 ipaddr 10.0.0.5"}},
		{"vault kv get -mount=secret db", nil, []string{"vault kv get -mount=secret db"}},
		{"vault kv put secret/db @data.json", nil, []string{"vault kv put secret/db @data.json"}},
		{"gcloud sql import csv inst gs://b/f.csv --database=d", nil, []string{"gs://b/f.csv"}},
		{"oras push r.example/a:1 f.txt:text/plain", nil, []string{"oras push r.example/a:1 f.txt:text/plain"}},
		{"ctr images pull docker.io/library/alpine:3", nil, []string{"ctr images pull docker.io/library/alpine:3"}},
		{"unar -o /tmp x.rar", nil, []string{"unar -o /tmp x.rar"}},
		{"isql -v shopdsn", nil, []string{"isql -v shopdsn"}},
		{"etcdctl user add bob", nil, []string{"etcdctl user add bob"}},
	})
}

// TestRedactScriptSetters: run_script runs python3, and commands embed
// other languages: a secret-named variable set by subscript or by a
// setter call, and a login call's password, lose their values.
func TestRedactScriptSetters(t *testing.T) {
	checkSpellings(t, []spelling{
		{"import os\nos.environ['PGPASSWORD'] = 'S3cr3tZ'\nos.system('psql')", []string{"S3cr3tZ"}, []string{"os.environ['PGPASSWORD'] = '", "os.system('psql')"}},
		{`os.environ["DB_PASSWORD"]="S3cr3tZ"`, []string{"S3cr3tZ"}, []string{`os.environ["DB_PASSWORD"]="`}},
		{`process.env["API_TOKEN"] = 'S3cr3tZ'`, []string{"S3cr3tZ"}, nil},
		{`ENV['GITHUB_TOKEN'] = "S3cr3tZ"`, []string{"S3cr3tZ"}, nil},
		{`$ENV{'DB_PASS'} = 'S3cr3tZ';`, []string{"S3cr3tZ"}, []string{"';"}},
		{`os.putenv("PGPASSWORD", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`os.putenv("PGPASSWORD", "`}},
		{`os.environ.setdefault("MYSQL_PWD", "S3cr3tZ")`, []string{"S3cr3tZ"}, nil},
		{`os.Setenv("VAULT_TOKEN", "S3cr3tZ")`, []string{"S3cr3tZ"}, nil},
		{`setenv("SSHPASS", "S3cr3tZ", 1);`, []string{"S3cr3tZ"}, []string{", 1);"}},
		{`[Environment]::SetEnvironmentVariable("DB_PASSWORD", "S3cr3tZ", "User")`, []string{"S3cr3tZ"}, []string{`"User")`}},
		{`System.setProperty("db.password", "S3cr3tZ")`, []string{"S3cr3tZ"}, nil},
		{`pw = os.getenv("DB_PASSWORD", "S3cr3tZ")`, []string{"S3cr3tZ"}, nil},
		{`ftplib.FTP(h).login("bob", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`login("bob", "`}},
		{`s.login('bob', 'S3cr3tZ')`, []string{"S3cr3tZ"}, nil},
		{`req.SetBasicAuth("bob", "S3cr3tZ")`, []string{"S3cr3tZ"}, nil},
		{`requests.get(url, auth=HTTPBasicAuth("bob", "S3cr3tZ"))`, []string{"S3cr3tZ"}, []string{`HTTPBasicAuth("bob", "`}},
		// Reading a secret variable, comparing it with no literal, and
		// other keys stay; the literal a secret is compared with is the
		// secret, or a guess at it (redact_compare.go).
		{`conn = os.environ["DB_PASSWORD"]`, nil, []string{`conn = os.environ["DB_PASSWORD"]`}},
		{`if os.environ['TOKEN'] == 'S3cr3tZ': pass`, []string{"S3cr3tZ"}, []string{`if os.environ['TOKEN'] == '`, `': pass`}},
		{`if os.environ['TOKEN'] == expected: pass`, nil, []string{`if os.environ['TOKEN'] == expected: pass`}},
		{`os.environ['LANG'] = 'C'; print("token", x)`, nil, []string{`os.environ['LANG'] = 'C'; print("token", x)`}},
		{`os.getenv("DB_PASSWORD", None)`, nil, []string{`os.getenv("DB_PASSWORD", None)`}},
		{`ftp.login()`, nil, []string{`ftp.login()`}},
	})
}

// TestRedactArgvLists: a script that runs a program from an argv list
// (subprocess.run([...]), exec.Command(...)) passes its options as list
// items, read by the program's rules like the words of a command line.
func TestRedactArgvLists(t *testing.T) {
	checkSpellings(t, []spelling{
		{`subprocess.run(["sshpass", "-p", "S3cr3tZ", "ssh", "h"])`, []string{"S3cr3tZ"}, []string{`"-p", "`, `", "ssh", "h"])`}},
		{`exec.Command("sshpass", "-p", "S3cr3tZ", "ssh", "h")`, []string{"S3cr3tZ"}, []string{`"ssh", "h")`}},
		{`subprocess.run(['curl', '-u', 'bob:S3cr3tZ', 'https://x'])`, []string{"S3cr3tZ"}, []string{`'-u', 'bob:`, `'https://x'`}},
		{`["docker", "login", "-p", "S3cr3tZ", "registry.example"]`, []string{"S3cr3tZ"}, []string{`"registry.example"]`}},
		{`["tool", "--password", "S3cr3tZ", "run"]`, []string{"S3cr3tZ"}, []string{`"run"]`}},
		{`["redis-cli", "-a", 'S3cr3tZ', "ping"]`, []string{"S3cr3tZ"}, []string{`"ping"]`}},
		// Other options' items stay.
		{`subprocess.run(["ssh", "-p", "2222", "h"])`, nil, []string{`subprocess.run(["ssh", "-p", "2222", "h"])`}},
		{`["docker", "run", "-p", "8080:80", "nginx"]`, nil, []string{`["docker", "run", "-p", "8080:80", "nginx"]`}},
	})
}

// TestRedactSecretSources: a secret the command itself supplies to the
// file or descriptor a program reads its password from — standard input
// named as a file, another descriptor fed by a here-string, a process
// substitution that prints it — and the input of more programs that read
// a secret there.
func TestRedactSecretSources(t *testing.T) {
	checkSpellings(t, []spelling{
		{"sshpass -d 3 ssh h 3<<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"sshpass -d 3 ssh h 3<<<"}},
		{"sshpass -d3 ssh h 3<<<'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ssh h"}},
		{"sshpass -f <(echo S3cr3tZ) ssh h", []string{"S3cr3tZ"}, []string{"sshpass -f <(echo ", ") ssh h"}},
		{"sshpass -f <(printf '%s' 'S3cr3tZ') ssh h", []string{"S3cr3tZ"}, []string{"ssh h"}},
		{"sshpass -f /dev/stdin ssh h <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"ssh h <<<"}},
		{"echo S3cr3tZ | sshpass -d 0 ssh h", []string{"S3cr3tZ"}, []string{"| sshpass -d 0 ssh h"}},
		{"openssl rsa -passin fd:3 -in k 3<<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"-in k 3<<<"}},
		{"openssl rsa -passin file:<(echo S3cr3tZ) -in k", []string{"S3cr3tZ"}, []string{"-in k"}},
		{"gpg --batch --passphrase-file <(echo S3cr3tZ) -d f", []string{"S3cr3tZ"}, []string{"-d f"}},
		{"gpg --batch --passphrase-fd 3 -d f 3<<EOF\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"-d f 3<<EOF", "EOF"}},
		{"restic --password-file=<(echo S3cr3tZ) snapshots", []string{"S3cr3tZ"}, []string{"snapshots"}},
		{"curl --netrc-file <(echo machine h login u password S3cr3tZ) https://h", []string{"S3cr3tZ"}, []string{"https://h"}},
		{"curl -K <(printf 'user = \"bob:%s\"' S3cr3tZ) https://x", []string{"S3cr3tZ"}, []string{"https://x"}},
		{"htpasswd -i f bob < <(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"htpasswd -i f bob < <(echo "}},
		{"docker login --password-stdin r < <(echo S3cr3tZ)", []string{"S3cr3tZ"}, []string{"--password-stdin r"}},
		{"echo S3cr3tZ | ldappasswd -T /dev/stdin uid=u", []string{"S3cr3tZ"}, []string{"uid=u"}},
		{"openssl passwd -6 -stdin <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"-stdin <<<"}},
		{"echo S3cr3tZ | cargo login", []string{"S3cr3tZ"}, []string{"| cargo login"}},
		{"echo S3cr3tZ | glab auth login --stdin", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | kubectl create secret generic x --from-file=pw=/dev/stdin", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | wrangler secret put API_KEY", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | vault kv put secret/x value=-", []string{"S3cr3tZ"}, []string{"value=-"}},
		{"echo S3cr3tZ | systemd-creds encrypt - out.cred", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | redis-cli --askpass ping", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | redis-cli -x AUTH", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | nmcli --ask con up home", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | keyctl padd user k @u", []string{"S3cr3tZ"}, nil},
		{"echo S3cr3tZ | secret-tool store --label x k v", []string{"S3cr3tZ"}, nil},
		{"wpa_passphrase HomeNet <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"wpa_passphrase HomeNet <<<"}},
		{"echo S3cr3tZ | restic -r /srv/r snapshots", []string{"S3cr3tZ"}, []string{"restic -r /srv/r snapshots"}},
		{"cifscreds add -u bob nas <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"cifscreds add -u bob nas <<<"}},
		{"httpie -a bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"-a bob:"}},
		// Other descriptors and substitutions stay.
		{"diff <(echo a) <(echo b)", nil, []string{"diff <(echo a) <(echo b)"}},
		{"sshpass -f /root/pw ssh h 3<<< hello", nil, []string{"sshpass -f /root/pw ssh h 3<<< hello"}},
		{"cmd 2<<< x; grep y <<< z", nil, []string{"cmd 2<<< x; grep y <<< z"}},
		{"sshpass -f <(pass show nas) ssh h", nil, []string{"sshpass -f <(pass show nas) ssh h"}},
	})
}

// TestRedactWellKnownCredentialFiles: what a command writes into the
// credential files of common clients and daemons is redacted; writes to
// ordinary files next to them stay.
func TestRedactWellKnownCredentialFiles(t *testing.T) {
	for _, f := range []string{
		"~/.npmrc", "~/.pypirc", "~/.boto", "~/.fetchmailrc", "~/.msmtprc", "~/.config/rclone/rclone.conf",
		"~/.terraformrc", "~/.m2/settings-security.xml", "/etc/mysql/debian.cnf", "/etc/sasl2/sasldb2",
		"/etc/nut/upsd.users", "/etc/wpa_supplicant/wpa_supplicant.conf", "~/.docker/config.json",
		"~/.kube/config", "~/.config/gh/hosts.yml", "~/.vnc/passwd", "/etc/mosquitto/passwd",
		"/etc/NetworkManager/system-connections/home.nmconnection", "/etc/containers/auth.json",
	} {
		checkSpellings(t, []spelling{{"echo 'S3cr3tZ' > " + f, []string{"S3cr3tZ"}, []string{"> " + f}}})
	}
	for _, in := range []string{
		"echo hello > ~/.config/app.conf", "echo 1 > /etc/docker/daemon.json", "echo x > ~/.kube/cache/note",
		"echo hi > /etc/NetworkManager/NetworkManager.conf", "echo DEBUG=1 >> .env.example",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestRedactInnerQuotes: quotes of the other kind inside a quoted header
// are bytes of its value, the inner shell's "…" inside sh -c '…' is part
// of a URL, and a secret fed on a pipe inside $(…), if, while or for
// reaches its reader as at the top level.
func TestRedactInnerQuotes(t *testing.T) {
	checkSpellings(t, []spelling{
		{`curl -H 'Authorization: Bearer "S3cr3tZ"' https://x`, []string{"S3cr3tZ"}, []string{"Authorization: Bearer", "' https://x"}},
		{`curl -H 'Authorization: Bearer S3cr"3tZ"' https://x`, []string{"S3cr", "3tZ"}, []string{"' https://x"}},
		{`curl -H "Cookie: theme='dark'; sid=S3cr3tZ" https://x`, []string{"S3cr3tZ"}, []string{`" https://x`}},
		{`sh -c 'git clone https://bob:"S3cr3tZ"@h/r'; ls`, []string{"S3cr3tZ"}, []string{"https://bob:", "@h/r'; ls"}},
		{`sh -c 'git clone https://bob:S3"cr3tZ"@h/r'`, []string{"S3", "cr3tZ"}, []string{"@h/r'"}},
		{`psql 'host=db password=$'S3cr3tZ''`, []string{"S3cr3tZ"}, []string{"host=db password="}},
		{"x=$(echo S3cr3tZ | docker login -u bob --password-stdin r)", []string{"S3cr3tZ"}, []string{"--password-stdin r)"}},
		{"if echo bob:S3cr3tZ | chpasswd; then echo ok; fi", []string{"S3cr3tZ"}, []string{"| chpasswd; then echo ok; fi"}},
		{"for u in a b; do echo $u:S3cr3tZ | chpasswd; done", []string{"S3cr3tZ"}, []string{"| chpasswd; done"}},
		{"while read u; do echo S3cr3tZ | passwd --stdin $u; done < users", []string{"S3cr3tZ"}, []string{"done < users"}},
		{"time echo S3cr3tZ | sudo -S id", []string{"S3cr3tZ"}, []string{"sudo -S id"}},
		{"sudo echo bob:S3cr3tZ | chpasswd", []string{"S3cr3tZ"}, []string{"| chpasswd"}},
		{"nice -n 5 printf '%s\\n' S3cr3tZ | passwd --stdin bob", []string{"S3cr3tZ"}, []string{"| passwd --stdin bob"}},
		{"ssh h echo S3cr3tZ | docker login --password-stdin r", []string{"S3cr3tZ"}, []string{"--password-stdin r"}},
		{"sudo echo hello | grep h", nil, []string{"sudo echo hello | grep h"}},
		// An echo's own $(…) is part of what it writes.
		{"echo S3cr3t$(printf Z)x | sudo -S id", []string{"S3cr3t", "Z)x"}, []string{"sudo -S id"}},
		// Plain uses stay.
		{`curl -H 'Accept: "json"' https://x`, nil, []string{`curl -H 'Accept: "json"' https://x`}},
		{"x=$(echo hi | tr h j); if echo a | grep a; then :; fi", nil, []string{"x=$(echo hi | tr h j); if echo a | grep a; then :; fi"}},
	})
}
