package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactCredentialOptions covers credentials passed to programs as
// environment variables and as options, in many spellings: every secret
// must be gone and the words around it (program, user, host) kept.
func TestRedactCredentialOptions(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		secret []string // none of these may survive
		keep   []string // all of these must survive
	}{
		// Environment variables, as assignments anywhere in a command.
		{"PGPASSWORD prefix", "PGPASSWORD=S3cr3tZ psql -h db -U app", []string{"S3cr3tZ"}, []string{"PGPASSWORD=", "psql -h db -U app"}},
		{"MYSQL_PWD prefix", "MYSQL_PWD=S3cr3tZ mysql -u root", []string{"S3cr3tZ"}, []string{"MYSQL_PWD=", "mysql -u root"}},
		{"MYSQL_PASSWORD export", "export MYSQL_PASSWORD=S3cr3tZ; mysql", []string{"S3cr3tZ"}, []string{"export MYSQL_PASSWORD="}},
		{"MARIADB_PASSWORD docker -e", "docker run -e MARIADB_PASSWORD=S3cr3tZ mariadb:11", []string{"S3cr3tZ"}, []string{"docker run -e", "mariadb:11"}},
		{"POSTGRES_PASSWORD --env=", "podman run --env=POSTGRES_PASSWORD=S3cr3tZ postgres", []string{"S3cr3tZ"}, []string{"postgres"}},
		{"docker -e attached", "docker run -eMYSQL_ROOT_PWD=S3cr3tZ img", []string{"S3cr3tZ"}, []string{"img"}},
		{"REDISCLI_AUTH env", "env REDISCLI_AUTH=S3cr3tZ redis-cli ping", []string{"S3cr3tZ"}, []string{"redis-cli ping"}},
		{"MONGO_INITDB_ROOT_PASSWORD", "MONGO_INITDB_ROOT_PASSWORD='S3cr3t Z' mongod", []string{"S3cr3t Z"}, []string{"mongod"}},
		{"ORACLE_PWD", "ORACLE_PWD=S3cr3tZ ./start.sh", []string{"S3cr3tZ"}, []string{"./start.sh"}},
		{"SSHPASS", "SSHPASS=S3cr3tZ sshpass -e ssh bob@nas", []string{"S3cr3tZ"}, []string{"sshpass -e ssh bob@nas"}},
		{"RESTIC_PASSWORD", `RESTIC_PASSWORD="S3cr3tZ" restic backup /srv`, []string{"S3cr3tZ"}, []string{"restic backup /srv"}},
		{"BORG_PASSPHRASE", "BORG_PASSPHRASE=S3cr3tZ borg create ::x /srv", []string{"S3cr3tZ"}, []string{"borg create"}},
		{"KOPIA_PASSWORD lower", "kopia_password=S3cr3tZ kopia snapshot", []string{"S3cr3tZ"}, []string{"kopia snapshot"}},
		{"AWS_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY=S3cr3tZ aws s3 ls", []string{"S3cr3tZ"}, []string{"aws s3 ls"}},
		{"AWS_SESSION_TOKEN", "export AWS_SESSION_TOKEN=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"GITHUB_TOKEN", "GITHUB_TOKEN=S3cr3tZ gh pr list", []string{"S3cr3tZ"}, []string{"gh pr list"}},
		{"VAULT_TOKEN", "VAULT_TOKEN=S3cr3tZ vault kv get secret/x", []string{"S3cr3tZ"}, []string{"vault kv get"}},
		{"TS_AUTHKEY", "TS_AUTHKEY=S3cr3tZ tailscale up", []string{"S3cr3tZ"}, []string{"tailscale up"}},
		{"CF_API_KEY", "CF_API_KEY=S3cr3tZ ./dns.sh", []string{"S3cr3tZ"}, nil},
		{"APIKEY", "OPENWEATHER_APIKEY=S3cr3tZ ./w", []string{"S3cr3tZ"}, nil},
		{"PRIVATE_KEY", "DEPLOY_PRIVATE_KEY=S3cr3tZ ./deploy", []string{"S3cr3tZ"}, nil},
		{"CREDENTIALS", "DOCKER_CREDENTIALS=S3cr3tZ ./push", []string{"S3cr3tZ"}, nil},
		{"ANSIBLE_BECOME_PASS", "ANSIBLE_BECOME_PASS=S3cr3tZ ansible-playbook site.yml", []string{"S3cr3tZ"}, []string{"ansible-playbook site.yml"}},
		{"WIFI_PSK", "WIFI_PSK=S3cr3tZ ./join", []string{"S3cr3tZ"}, nil},
		{"SECRET_KEY_BASE", "SECRET_KEY_BASE=S3cr3tZ rails s", []string{"S3cr3tZ"}, []string{"rails s"}},
		{"declare -x", "declare -x DB_PASSWD=S3cr3tZ", []string{"S3cr3tZ"}, []string{"declare -x DB_PASSWD="}},
		{"append +=", "TOKEN_LIST+=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"env in JSON text", `{"env":{"MYSQL_PWD":"S3cr3tZ","REDISCLI_AUTH":"S3cr3tY"}}`, []string{"S3cr3tZ", "S3cr3tY"}, []string{"MYSQL_PWD"}},
		{"yaml env", "environment:\n  POSTGRES_PASSWORD: S3cr3tZ\n  POSTGRES_USER: app", []string{"S3cr3tZ"}, []string{"POSTGRES_USER: app"}},
		{"subscription key header", "curl -H 'Ocp-Apim-Subscription-Key: S3cr3tZ' https://api", []string{"S3cr3tZ"}, []string{"https://api"}},
		{"azure connection string", `AccountName=acct;AccountKey=S3cr3tZ;EndpointSuffix=core`, []string{"S3cr3tZ"}, []string{"AccountName=acct"}},
		{"query key", "GET /maps?key=S3cr3tZ&q=x", []string{"S3cr3tZ"}, []string{"q=x"}},
		{"pwd query", "GET /login?user=bob&pwd=S3cr3tZ", []string{"S3cr3tZ"}, []string{"user=bob"}},
		{"PWD path kept", "PWD=/srv/app OLDPWD=/root make", nil, []string{"PWD=/srv/app OLDPWD=/root make"}},
		{"SSH_AUTH_SOCK kept", "SSH_AUTH_SOCK=/run/agent.sock ssh nas", nil, []string{"SSH_AUTH_SOCK=/run/agent.sock ssh nas"}},
		{"GIT_AUTHOR_NAME kept", "GIT_AUTHOR_NAME=Bob git commit", nil, []string{"GIT_AUTHOR_NAME=Bob git commit"}},
		{"plain vars kept", "LANG=C HOME=/root PATH=/bin USER=bob ls", nil, []string{"LANG=C HOME=/root PATH=/bin USER=bob ls"}},

		// HTTP basic auth and headers.
		{"curl -u", "curl -u bob:S3cr3tZ https://nas/api", []string{"S3cr3tZ"}, []string{"curl -u bob:", "https://nas/api"}},
		{"curl --user", "curl --user bob:S3cr3tZ https://nas", []string{"S3cr3tZ"}, []string{"--user bob:"}},
		{"curl -u attached", "curl -ubob:S3cr3tZ https://nas", []string{"S3cr3tZ"}, []string{"-ubob:"}},
		{"curl --user=", "curl --user=bob:S3cr3tZ https://nas", []string{"S3cr3tZ"}, []string{"--user=bob:"}},
		{"curl quoted", `curl -u "bob:S3cr3t Z" https://nas`, []string{"S3cr3t Z"}, []string{`-u "bob:`}},
		{"curl cluster", "curl -sSLu bob:S3cr3tZ https://nas", []string{"S3cr3tZ"}, []string{"-sSLu bob:"}},
		{"curl cluster attached", "curl -ku'bob:S3cr3tZ' https://nas", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"curl proxy-user", "curl --proxy-user px:S3cr3tZ -x http://proxy:3128 https://x", []string{"S3cr3tZ"}, []string{"--proxy-user px:"}},
		{"curl -U", "curl -U px:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"-U px:"}},
		{"curl after path", "/usr/bin/curl -u bob:S3cr3tZ x", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"curl cert password", "curl --cert client.pem:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"client.pem:"}},
		{"curl oauth2 bearer", "curl --oauth2-bearer S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"https://x"}},
		{"curl -u user only kept", "curl -u bob https://nas", nil, []string{"curl -u bob https://nas"}},
		{"curl bearer header", `curl -H "Authorization: Bearer S3cr3tZ" https://x`, []string{"S3cr3tZ"}, []string{"Authorization: Bearer"}},
		{"curl basic header", `curl --header 'authorization: basic S3cr3tZ' https://x`, []string{"S3cr3tZ"}, nil},
		{"curl header no space", `curl -H 'Authorization:Bearer S3cr3tZ' https://x`, []string{"S3cr3tZ"}, nil},
		{"curl token header", `curl -H 'PRIVATE-TOKEN: S3cr3tZ' https://gitlab`, []string{"S3cr3tZ"}, nil},
		{"wget --password=", "wget --user=bob --password=S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"--user=bob"}},
		{"wget --http-password", "wget --http-user=bob --http-password=S3cr3tZ https://x", []string{"S3cr3tZ"}, nil},
		{"wget --ftp-password", "wget --ftp-password S3cr3tZ ftp://x", []string{"S3cr3tZ"}, nil},
		{"wget --proxy-password", "wget --proxy-password=S3cr3tZ https://x", []string{"S3cr3tZ"}, nil},
		{"httpie -a", "http -a bob:S3cr3tZ GET https://x", []string{"S3cr3tZ"}, []string{"-a bob:"}},
		{"httpie --auth", "http --auth bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, nil},
		{"httpie --auth=", "https --auth=bob:S3cr3tZ x", []string{"S3cr3tZ"}, nil},
		{"httpie bearer", "http -A bearer -a S3cr3tZ https://x", []string{"S3cr3tZ"}, nil},
		{"httpie header item", "http https://x Authorization:'Bearer S3cr3tZ'", []string{"S3cr3tZ"}, nil},
		{"httpie query item", "http https://x api_key==S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"xh -a", "xh -a bob:S3cr3tZ x", []string{"S3cr3tZ"}, nil},
		{"url password", "curl https://bob:S3cr3tZ@nas/api", []string{"S3cr3tZ"}, []string{"https://bob:"}},
		{"git clone token", "git clone https://oauth2:S3cr3tZ@gitlab.example/r.git", []string{"S3cr3tZ"}, []string{"git clone https://oauth2:", "@gitlab.example/r.git"}},
		{"git extraHeader", `git -c http.extraHeader='Authorization: Basic S3cr3tZ' clone https://x`, []string{"S3cr3tZ"}, []string{"clone https://x"}},
		{"git extraheader per url", `git -c http.https://github.com/.extraheader="AUTHORIZATION: bearer S3cr3tZ" fetch`, []string{"S3cr3tZ"}, []string{"fetch"}},

		// Password options.
		{"sshpass -p", "sshpass -p S3cr3tZ ssh -p 2222 bob@nas uptime", []string{"S3cr3tZ"}, []string{"sshpass -p", "ssh -p 2222 bob@nas uptime"}},
		{"sshpass -p attached", "sshpass -pS3cr3tZ ssh bob@nas", []string{"S3cr3tZ"}, []string{"ssh bob@nas"}},
		{"sshpass -p quoted", `sshpass -p 'S3cr3t Z' scp f bob@nas:`, []string{"S3cr3t Z"}, []string{"scp f bob@nas:"}},
		{"sudo sshpass", "sudo sshpass -p S3cr3tZ rsync -a x nas:", []string{"S3cr3tZ"}, []string{"rsync -a x nas:"}},
		{"htpasswd -b", "htpasswd -b /etc/nginx/.htpasswd bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"htpasswd -b /etc/nginx/.htpasswd bob"}},
		{"htpasswd -bc", "htpasswd -bc .htpasswd bob S3cr3tZ", []string{"S3cr3tZ"}, []string{".htpasswd bob"}},
		{"htpasswd -cbB", "htpasswd -cbB -C 12 .htpasswd bob 'S3cr3t Z' 2>/dev/null", []string{"S3cr3t Z"}, []string{".htpasswd bob", "/dev/null"}},
		{"htpasswd -nb", "htpasswd -nb bob S3cr3tZ > out", []string{"S3cr3tZ"}, []string{"-nb bob", "out"}},
		{"htpasswd -n -b", "htpasswd -n -b -B bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"bob"}},
		{"htpasswd then next", "htpasswd -b f bob S3cr3tZ && systemctl reload nginx", []string{"S3cr3tZ"}, []string{"systemctl reload nginx"}},
		{"docker login -p", "docker login -u bob -p S3cr3tZ registry.example", []string{"S3cr3tZ"}, []string{"-u bob", "registry.example"}},
		{"docker login --password", "docker login --username bob --password S3cr3tZ r", []string{"S3cr3tZ"}, []string{"--username bob"}},
		{"docker login --password=", "docker login --password=S3cr3tZ r", []string{"S3cr3tZ"}, nil},
		{"podman login -p", "podman login -p S3cr3tZ -u bob quay.io", []string{"S3cr3tZ"}, []string{"quay.io"}},
		{"docker run -p kept", "docker run -p 8080:80 nginx", nil, []string{"docker run -p 8080:80 nginx"}},
		{"helm repo add --password", "helm repo add r https://c --username bob --password S3cr3tZ", []string{"S3cr3tZ"}, []string{"--username bob"}},
		{"helm registry login", "helm registry login r.example -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"skopeo --creds", "skopeo copy --src-creds bob:S3cr3tZ docker://a docker://b", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"mysql -p", "mysql -uroot -pS3cr3tZ shop", []string{"S3cr3tZ"}, []string{"-uroot", "shop"}},
		{"mysql --password=", "mysql --user=root --password=S3cr3tZ", []string{"S3cr3tZ"}, []string{"--user=root"}},
		{"mysqladmin -p", "mysqladmin -u root -pS3cr3tZ status", []string{"S3cr3tZ"}, []string{"status"}},
		{"mysqldump", "mysqldump -pS3cr3tZ --all-databases", []string{"S3cr3tZ"}, nil},
		{"mysql -p then db kept", "mysql -p shop", nil, []string{"mysql -p shop"}},
		{"mongo -p", "mongo -u admin -p S3cr3tZ --authenticationDatabase admin", []string{"S3cr3tZ"}, []string{"-u admin"}},
		{"mongosh --password", "mongosh --username admin --password S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"mongodump url", "mongodump --uri mongodb://admin:S3cr3tZ@db/x", []string{"S3cr3tZ"}, nil},
		{"redis-cli -a", "redis-cli -a S3cr3tZ -h cache ping", []string{"S3cr3tZ"}, []string{"-h cache ping"}},
		{"redis-cli --pass", "redis-cli --pass S3cr3tZ ping", []string{"S3cr3tZ"}, nil},
		{"redis url", "redis-cli -u redis://:S3cr3tZ@cache:6379", []string{"S3cr3tZ"}, nil},
		{"psql url", `psql "postgresql://app:S3cr3tZ@db/shop"`, []string{"S3cr3tZ"}, []string{"postgresql://app:"}},
		{"psql conninfo", `psql "host=db user=app password=S3cr3tZ dbname=shop"`, []string{"S3cr3tZ"}, []string{"user=app", "dbname=shop"}},
		{"psql conninfo quoted", `psql "host=db password='S3cr3t Z' dbname=shop"`, []string{"S3cr3t Z"}, nil},
		{"openssl -passin", "openssl rsa -in k.pem -passin pass:S3cr3tZ -out k2", []string{"S3cr3tZ"}, []string{"-passin pass:", "-out k2"}},
		{"openssl -passout", "openssl genrsa -aes256 -passout pass:S3cr3tZ 4096", []string{"S3cr3tZ"}, []string{"4096"}},
		{"openssl -passin env kept", "openssl rsa -passin env:KEYPASS -in k", nil, []string{"-passin env:KEYPASS"}},
		{"openssl enc -k", "openssl enc -aes-256-cbc -k S3cr3tZ -in f", []string{"S3cr3tZ"}, []string{"-in f"}},
		{"openssl -key kept", "openssl s_client -key k.pem -connect x:443", nil, []string{"-key k.pem"}},
		{"openssl pkcs12 -password", "openssl pkcs12 -export -password pass:S3cr3tZ -out a.p12", []string{"S3cr3tZ"}, nil},
		{"openssl passwd", "openssl passwd -6 S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"-passin without openssl", "$OPENSSL rsa -passin pass:S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"smbclient -U", "smbclient //nas/share -U bob%S3cr3tZ -c ls", []string{"S3cr3tZ"}, []string{"-U bob%", "-c ls"}},
		{"smbclient -U attached", "smbclient -Ubob%S3cr3tZ -L nas", []string{"S3cr3tZ"}, nil},
		{"smbclient --user=", `smbclient --user='WG\bob%S3cr3tZ' -L nas`, []string{"S3cr3tZ"}, nil},
		{"smbclient --password", "smbclient -U bob --password=S3cr3tZ -L nas", []string{"S3cr3tZ"}, nil},
		{"net ads join", "net ads join -U admin%S3cr3tZ", []string{"S3cr3tZ"}, []string{"admin%"}},
		{"mount cifs", "mount -t cifs -o username=bob,password=S3cr3tZ,uid=0 //nas/s /mnt", []string{"S3cr3tZ"}, []string{"username=bob", "uid=0", "/mnt"}},
		{"mount cifs pass=", "mount -o user=bob,pass=S3cr3tZ //nas/s /mnt", []string{"S3cr3tZ"}, nil},
		// A credentials file's path is where the secret is, no secret
		// (mount.cifs(8)); the audit line keeps which file.
		{"mount credentials", "mount -o credentials=/root/.smbcred //nas/s /mnt", nil, []string{"credentials=/root/.smbcred", "/mnt"}},
		{"ldapsearch -w", "ldapsearch -x -D cn=admin,dc=ex -w S3cr3tZ -b dc=ex", []string{"S3cr3tZ"}, []string{"-b dc=ex"}},
		{"ldapsearch -xw", "ldapsearch -xw S3cr3tZ -b dc=ex", []string{"S3cr3tZ"}, nil},
		{"ldapmodify -w attached", "ldapmodify -wS3cr3tZ -f x.ldif", []string{"S3cr3tZ"}, nil},
		{"ldappasswd -s", "ldappasswd -x -w S3cr3tZ -s N3wS3cr3t uid=bob", []string{"S3cr3tZ", "N3wS3cr3t"}, []string{"uid=bob"}},
		{"dovecot pw -p", "dovecot pw -s SHA512-CRYPT -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"SHA512-CRYPT"}},
		{"dovecotpw -p", "dovecotpw -s SSHA -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"SSHA"}},
		{"vault login", "vault login S3cr3tZ", []string{"S3cr3tZ"}, []string{"vault login"}},
		{"vault login flags", "vault login -no-print S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"vault login userpass", "vault login -method=userpass username=bob password=S3cr3tZ", []string{"S3cr3tZ"}, []string{"username=bob"}},
		{"vault login token=", "bao login token=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"--token", "doctl --token S3cr3tZ compute droplet list", []string{"S3cr3tZ"}, []string{"compute droplet list"}},
		{"--token=", "glab auth login --token=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"--api-key", "tool --api-key S3cr3tZ run", []string{"S3cr3tZ"}, []string{"run"}},
		{"--apikey=", "tool --apikey=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"--secret", "tool --secret S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"--client-secret", "az login --service-principal -u app --client-secret S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"az login -p", "az login -u bob -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"-u bob"}},
		{"--authkey", "tailscale up --authkey=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"--auth-key", "tailscale up --auth-key S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"lftp -u", "lftp -u bob,S3cr3tZ ftp.example", []string{"S3cr3tZ"}, []string{"bob,"}},
		{"ipmitool -P", "ipmitool -I lanplus -H bmc -U admin -P S3cr3tZ chassis status", []string{"S3cr3tZ"}, []string{"-U admin", "chassis status"}},
		{"sqlcmd -P", "sqlcmd -S db -U sa -P S3cr3tZ -Q 'select 1'", []string{"S3cr3tZ"}, nil},
		{"zip -P", "zip -P S3cr3tZ out.zip f", []string{"S3cr3tZ"}, []string{"out.zip f"}},
		{"7z -p", "7z a -pS3cr3tZ out.7z f", []string{"S3cr3tZ"}, []string{"out.7z f"}},
		{"mosquitto -P", "mosquitto_pub -h broker -u bob -P S3cr3tZ -t x -m y", []string{"S3cr3tZ"}, nil},
		{"plink -pw", "plink -pw S3cr3tZ bob@host", []string{"S3cr3tZ"}, []string{"bob@host"}},
		{"useradd -p", "useradd -m -p S3cr3tZ bob", []string{"S3cr3tZ"}, []string{"bob"}},
		{"snmpwalk -c", "snmpwalk -v2c -c S3cr3tZ switch1", []string{"S3cr3tZ"}, []string{"switch1"}},
		{"snmpget v3", "snmpget -v3 -u mon -l authPriv -A S3cr3tZ -X S3cr3tY sw sysName.0", []string{"S3cr3tZ", "S3cr3tY"}, []string{"sysName.0"}},
		{"mc alias set", "mc alias set nas https://nas:9000 AKEXAMPLE S3cr3tZ", []string{"S3cr3tZ"}, []string{"https://nas:9000"}},
		{"mc admin user add", "mc admin user add nas bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"bob"}},
		{"rabbitmqctl add_user", "rabbitmqctl add_user bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"bob"}},
		{"wpa_passphrase", "wpa_passphrase HomeNet S3cr3tZ >> /etc/wpa.conf", []string{"S3cr3tZ"}, []string{"HomeNet", "/etc/wpa.conf"}},
		{"transmission-remote -n", "transmission-remote 127.0.0.1:9091 -n admin:S3cr3tZ -l", []string{"S3cr3tZ"}, []string{"admin", "-l"}},
		{"transmission-remote --auth", "transmission-remote --auth=admin:S3cr3tZ -l", []string{"S3cr3tZ"}, []string{"admin"}},
		{"rclone config create", "rclone config create nas webdav url https://nas pass S3cr3tZ", []string{"S3cr3tZ"}, []string{"nas", "webdav"}},
		{"nmcli wifi password", "nmcli dev wifi connect HomeNet password S3cr3tZ", []string{"S3cr3tZ"}, []string{"HomeNet"}},
		{"nmcli psk", "nmcli con modify home wifi-sec.psk S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"git config password", "git config --global user.password S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"npm config authToken", "npm config set //npm.example.internal/:_authToken S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"aws configure set", "aws configure set aws_secret_access_key S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"gh secret set", "gh secret set DB_PASS --body S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"kubectl from-literal", "kubectl create secret generic db --from-literal=pw=S3cr3tZ --from-literal=user=bob", []string{"S3cr3tZ"}, nil},
		{"docker login -p=", "docker login -p=S3cr3tZ r", []string{"S3cr3tZ"}, nil},
		{"spaced env assignment", `MYSQL_PWD = "S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"MYSQL_PWD"}},
		{"spaced json key", `{"SSHPASS" : "S3cr3tZ"}`, []string{"S3cr3tZ"}, nil},
		{"powershell env", `$env:PGPASSWORD="S3cr3tZ"; psql`, []string{"S3cr3tZ"}, []string{"psql"}},
		{"helm --set", "helm install db bitnami/mariadb --set auth.rootPassword=S3cr3tZ", []string{"S3cr3tZ"}, []string{"bitnami/mariadb"}},
		{"ansible -e", "ansible-playbook site.yml -e 'ansible_become_pass=S3cr3tZ'", []string{"S3cr3tZ"}, nil},
		{"terraform -var", `terraform apply -var "db_password=S3cr3tZ"`, []string{"S3cr3tZ"}, nil},
		{"vault approle", "vault write auth/approle/login role_id=r1 secret_id=S3cr3tZ", []string{"S3cr3tZ"}, []string{"role_id=r1"}},
		{"curl proxy userinfo", "curl -x px:S3cr3tZ@proxy:3128 https://x", []string{"S3cr3tZ"}, []string{"px:", "@proxy:3128"}},
		{"curl --proxy url", "curl --proxy http://px:S3cr3tZ@proxy:3128 https://x", []string{"S3cr3tZ"}, nil},
		{"xh --bearer", "xh --bearer S3cr3tZ https://x", []string{"S3cr3tZ"}, nil},
		{"redis-cli AUTH", "redis-cli -h cache AUTH S3cr3tZ", []string{"S3cr3tZ"}, []string{"-h cache"}},
		{"redis-cli requirepass", "redis-cli config set requirepass S3cr3tZ", []string{"S3cr3tZ"}, []string{"config set requirepass"}},
		{"sql create user", `mysql -e "CREATE USER 'app'@'%' IDENTIFIED BY 'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"CREATE USER 'app'"}},
		{"sql identified with", `mysql -e "ALTER USER app IDENTIFIED WITH mysql_native_password BY 'S3cr3tZ';"`, []string{"S3cr3tZ"}, nil},
		{"sql postgres password", `psql -c "ALTER ROLE app WITH LOGIN PASSWORD 'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"ALTER ROLE app"}},
		{"sql set password", `mysql -e "SET PASSWORD FOR app = PASSWORD('S3cr3tZ')"`, []string{"S3cr3tZ"}, nil},
		{"sql oracle bare", "CREATE USER scott IDENTIFIED BY S3cr3tZ;", []string{"S3cr3tZ"}, []string{"CREATE USER scott"}},
		{"sqlplus", "sqlplus -s scott/S3cr3tZ@orcl @report.sql", []string{"S3cr3tZ"}, []string{"scott/", "@orcl", "@report.sql"}},
		{"sqlplus sysdba kept", "sqlplus / as sysdba", nil, []string{"sqlplus / as sysdba"}},
		{"expdp userid", "expdp userid=system/S3cr3tZ directory=/u01/dump", []string{"S3cr3tZ"}, []string{"userid=system/", "directory=/u01/dump"}},
		{"keytool", "keytool -importcert -keystore ks.jks -storepass S3cr3tZ -keypass S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"ks.jks"}},
		{"ssh-keygen -N", "ssh-keygen -t ed25519 -N 'S3cr3tZ' -f key", []string{"S3cr3tZ"}, []string{"-f key"}},
		{"ssh-keygen -P", "ssh-keygen -p -P S3cr3tZ -N S3cr3tY -f key", []string{"S3cr3tZ", "S3cr3tY"}, nil},
		{"doctl -t", "doctl -t S3cr3tZ compute droplet list", []string{"S3cr3tZ"}, []string{"compute droplet list"}},
		{"wpa_cli psk", `wpa_cli set_network 0 psk '"S3cr3tZ"'`, []string{"S3cr3tZ"}, nil},
		{"etcdctl --user", "etcdctl --user root:S3cr3tZ get /x", []string{"S3cr3tZ"}, []string{"root:"}},
		{"cqlsh -p", "cqlsh -u cassandra -p S3cr3tZ db1", []string{"S3cr3tZ"}, []string{"db1"}},
		{"GH_PAT", "GH_PAT=S3cr3tZ gh repo list", []string{"S3cr3tZ"}, []string{"gh repo list"}},
		{"webhook url", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0/B0/S3cr3tZ ./notify", []string{"S3cr3tZ"}, []string{"./notify"}},
		{"connection string", `AZURE_STORAGE_CONNECTION_STRING="S3cr3tZ" az storage ls`, []string{"S3cr3tZ"}, []string{"az storage ls"}},
		{"SIM_PIN", "SIM_PIN=S3cr3tZ mmcli -m 0", []string{"S3cr3tZ"}, nil},
		{"flag --db-pwd", "app --db-pwd S3cr3tZ --db-user bob", []string{"S3cr3tZ"}, []string{"--db-user bob"}},
		{"flag --secret-id", "tool -secret-id=S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"flag --creds", "tool --creds bob:S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"flag --pin", "yubico --pin S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"flag stdin kept", "docker login --password-stdin registry.example", nil, []string{"registry.example"}},
		{"flag file kept", "restic --password-file /etc/restic/pw backup", nil, []string{"/etc/restic/pw"}},
		{"flag auth-url kept", "openstack --os-auth-url https://keystone/v3 server list", nil, []string{"https://keystone/v3"}},
		{"flag no-auth kept", "tool --no-auth host1", nil, []string{"host1"}},
		{"path flag kept", "rsync --path /srv x", nil, []string{"--path /srv"}},
		{"git commit message kept", `git commit -m "rotate token handling"`, nil, []string{"rotate token handling"}},
		{"many commands", "cd /srv && PGPASSWORD=S3cr3tZ pg_dump shop | gzip > x; curl -u a:S3cr3tY x; sshpass -p S3cr3tX ssh h", []string{"S3cr3tZ", "S3cr3tY", "S3cr3tX"}, []string{"pg_dump shop | gzip > x", "ssh h"}},
		{"inside sh -c", `sh -c 'sshpass -p S3cr3tZ ssh nas; mysql -pS3cr3tY'`, []string{"S3cr3tZ", "S3cr3tY"}, nil},
		{"json escaped", `{\"command\": \"curl -u bob:S3cr3tZ x\"}`, []string{"S3cr3tZ"}, nil},
		// More programs' own grammars: proxies, slash options, subcommand
		// positionals, attached options longer than one letter.
		{"curl --socks5", "curl --socks5 px:S3cr3tZ@proxy:1080 https://x", []string{"S3cr3tZ"}, []string{"px:", "@proxy:1080"}},
		{"curl --socks5-hostname", "curl --socks5-hostname px:S3cr3tZ@p:1080 x", []string{"S3cr3tZ"}, nil},
		{"smbclient password positional", "smbclient //nas/share S3cr3tZ -U bob -c ls", []string{"S3cr3tZ"}, []string{"//nas/share", "-U bob -c ls"}},
		{"smbclient options first", "smbclient -U bob //nas/share 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"-U bob //nas/share"}},
		{"smbclient without password kept", "smbclient //nas/share -U bob -c ls", nil, []string{"smbclient //nas/share -U bob -c ls"}},
		{"rclone backend named like a program", "rclone config create r sftp host h pass S3cr3tZ", []string{"S3cr3tZ"}, []string{"sftp host h pass"}},
		{"npm set", "npm set //reg.example/:_authToken S3cr3tZ", []string{"S3cr3tZ"}, []string{"npm set"}},
		{"poetry http-basic", "poetry config http-basic.internal bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"http-basic.internal bob"}},
		{"composer http-basic", "composer config --global http-basic.repo.example.org bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"repo.example.org bob"}},
		{"twine -p", "twine upload -u __token__ -p S3cr3tZ dist/*", []string{"S3cr3tZ"}, []string{"dist/*"}},
		{"cargo login", "cargo login S3cr3tZ", []string{"S3cr3tZ"}, []string{"cargo login"}},
		{"consul agent token", "consul acl set-agent-token agent S3cr3tZ", []string{"S3cr3tZ"}, []string{"set-agent-token agent"}},
		{"rar -hp", "rar a -hpS3cr3tZ a.rar f", []string{"S3cr3tZ"}, []string{"-hp", "a.rar f"}},
		{"xfreerdp /p:", "xfreerdp /v:h /u:bob /p:S3cr3tZ +clipboard", []string{"S3cr3tZ"}, []string{"/u:bob /p:", "+clipboard"}},
		{"xfreerdp /pth:", "xfreerdp3 /v:h /pth:S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"mysqladmin password", "mysqladmin -uroot -pS3cr3tY password S3cr3tZ", []string{"S3cr3tZ", "S3cr3tY"}, []string{"password"}},
		{"ipmitool user set password", "ipmitool -I lanplus -H bmc -U admin -P S3cr3tY user set password 2 S3cr3tZ", []string{"S3cr3tZ", "S3cr3tY"}, []string{"user set password 2"}},
		{"racadm set", "racadm set iDRAC.Users.2.Password S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"net rpc user add", "net rpc user add bob S3cr3tZ -U admin%S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"user add bob"}},
		{"keytool -new", "keytool -storepasswd -new S3cr3tZ -storepass S3cr3tY -keystore k", []string{"S3cr3tZ", "S3cr3tY"}, []string{"-keystore k"}},
		{"slappasswd -s", "slappasswd -s S3cr3tZ", []string{"S3cr3tZ"}, nil},
		{"dotnet nuget push -k", "dotnet nuget push x.nupkg -k S3cr3tZ -s src", []string{"S3cr3tZ"}, []string{"-s src"}},
		{"dotnet build -p kept", "dotnet build -p:Configuration=Release", nil, []string{"dotnet build -p:Configuration=Release"}},
		{"impacket target", "psexec.py corp/bob:S3cr3tZ@10.0.0.1", []string{"S3cr3tZ"}, []string{"corp/bob:", "@10.0.0.1"}},
		{"impacket -hashes", "secretsdump.py -hashes aad3b435:S3cr3tZ corp/bob@dc1", []string{"S3cr3tZ"}, []string{"corp/bob@dc1"}},
		{"mysqlsh uri", "mysqlsh root:S3cr3tZ@localhost:3306", []string{"S3cr3tZ"}, []string{"root:", "@localhost:3306"}},
		// Secrets fed on standard input to a program that reads one there.
		{"echo | sudo -S", "echo S3cr3tZ | sudo -S apt-get update", []string{"S3cr3tZ"}, []string{"echo ", "| sudo -S apt-get update"}},
		{"echo quoted | sudo -kS", `echo "S3cr3tZ" | sudo -kS ls`, []string{"S3cr3tZ"}, []string{"sudo -kS ls"}},
		{"printf | sudo --stdin", `printf '%s\n' 'S3cr3tZ' | sudo --stdin true`, []string{"S3cr3tZ"}, []string{"sudo --stdin true"}},
		{"echo | chpasswd", "echo 'root:S3cr3tZ' | chpasswd", []string{"S3cr3tZ"}, []string{"| chpasswd"}},
		{"echo | sudo chpasswd", "echo bob:S3cr3tZ | sudo chpasswd", []string{"S3cr3tZ"}, []string{"sudo chpasswd"}},
		{"chpasswd <<<", "chpasswd <<< 'bob:S3cr3tZ'", []string{"S3cr3tZ"}, []string{"chpasswd <<<"}},
		{"chpasswd here-document", "chpasswd <<EOF\nbob:S3cr3tZ\nann:S3cr3tY\nEOF\nid bob", []string{"S3cr3tZ", "S3cr3tY"}, []string{"chpasswd <<EOF", "EOF\nid bob"}},
		{"chpasswd <<-'END'", "sudo chpasswd <<-'END'\n\tbob:S3cr3tZ\n\tEND", []string{"S3cr3tZ"}, []string{"\tEND"}},
		{"docker --password-stdin", "echo S3cr3tZ | docker login -u bob --password-stdin registry.example", []string{"S3cr3tZ"}, []string{"registry.example"}},
		{"two here-strings", "chpasswd <<< 'x:S3cr3tY' <<< 'bob:S3cr3tZ'", []string{"S3cr3tZ", "S3cr3tY"}, []string{"chpasswd <<<"}},
		{"two here-documents", "chpasswd <<A <<-B\nann:S3cr3tY\nA\n\tbob:S3cr3tZ\n\tB\nid bob", []string{"S3cr3tZ", "S3cr3tY"}, []string{"chpasswd <<A <<-B", "\nA\n", "id bob"}},
		{"gh --with-token", "gh auth login --with-token <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"gh auth login --with-token"}},
		{"passwd --stdin", "echo S3cr3tZ | passwd --stdin bob", []string{"S3cr3tZ"}, []string{"passwd --stdin bob"}},
		{"htpasswd -i", "echo S3cr3tZ | htpasswd -i /etc/nginx/htpasswd bob", []string{"S3cr3tZ"}, []string{"/etc/nginx/htpasswd bob"}},
		{"after another command", "cd /tmp; echo S3cr3tZ | sudo -S id", []string{"S3cr3tZ"}, []string{"cd /tmp;", "sudo -S id"}},
		{"echo | grep kept", "echo hello | grep h", nil, []string{"echo hello | grep h"}},
		{"echo || sudo -S kept", "echo fine || sudo -S ls", nil, []string{"echo fine || sudo -S ls"}},
		{"sudo without -S kept", "echo hello | sudo tee /tmp/x", nil, []string{"echo hello | sudo tee /tmp/x"}},
		{"here-string of a plain command kept", "grep x <<< 'hello'", nil, []string{"grep x <<< 'hello'"}},
		// Programs that read a secret on their input whatever their
		// options, feeders other than one echo, and options naming
		// standard input as where a secret comes from.
		{"echo -e | passwd", `echo -e 'S3cr3tZ\nS3cr3tZ' | passwd bob`, []string{"S3cr3tZ"}, []string{"| passwd bob"}},
		{"yes | passwd", "yes S3cr3tZ | sudo passwd bob", []string{"S3cr3tZ"}, []string{"yes ", "| sudo passwd bob"}},
		{"printf | smbpasswd -s", `printf 'S3cr3tZ\nS3cr3tZ\n' | smbpasswd -s -a bob`, []string{"S3cr3tZ"}, []string{"smbpasswd -s -a bob"}},
		{"group | smbpasswd", "(echo S3cr3tZ; echo S3cr3tY) | smbpasswd -s -a bob", []string{"S3cr3tZ", "S3cr3tY"}, []string{"(echo ", "| smbpasswd -s -a bob"}},
		{"brace group | passwd", "{ echo S3cr3tZ; echo S3cr3tY; } | passwd bob", []string{"S3cr3tZ", "S3cr3tY"}, []string{"| passwd bob"}},
		{"echo | kinit", "echo S3cr3tZ | kinit bob@EXAMPLE.ORG", []string{"S3cr3tZ"}, []string{"kinit bob@EXAMPLE.ORG"}},
		{"kinit <<<", "kinit bob <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"kinit bob <<<"}},
		{"cryptsetup <<<", "cryptsetup open /dev/sdb1 data <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"/dev/sdb1 data"}},
		{"echo | cryptsetup", "echo -n S3cr3tZ | cryptsetup luksFormat /dev/sdb1 -", []string{"S3cr3tZ"}, []string{"luksFormat /dev/sdb1 -"}},
		{"vncpasswd -f <<<", "vncpasswd -f <<< S3cr3tZ > passwd", []string{"S3cr3tZ"}, []string{"> passwd"}},
		{"openssl -passin stdin", "echo S3cr3tZ | openssl rsa -passin stdin -in k", []string{"S3cr3tZ"}, []string{"-passin stdin -in k"}},
		{"gpg --passphrase-fd 0", "echo S3cr3tZ | gpg --batch --passphrase-fd 0 -d f", []string{"S3cr3tZ"}, []string{"-d f"}},
		{"--password-file=-", "echo S3cr3tZ | restic --password-file=- snapshots", []string{"S3cr3tZ"}, []string{"snapshots"}},
		{"--token-stdin", "printf %s S3cr3tZ | tool --token-stdin", []string{"S3cr3tZ"}, []string{"--token-stdin"}},
		{"docker secret create -", "echo S3cr3tZ | docker secret create db -", []string{"S3cr3tZ"}, []string{"docker secret create db -"}},
		{"gh secret set stdin", "echo S3cr3tZ | gh secret set DB_PASS", []string{"S3cr3tZ"}, []string{"gh secret set DB_PASS"}},
		{"pass insert", "echo S3cr3tZ | pass insert -e web/site", []string{"S3cr3tZ"}, []string{"web/site"}},
		{"vault login -", "echo S3cr3tZ | vault login -", []string{"S3cr3tZ"}, []string{"vault login -"}},
		{"ssh host sudo -S", "echo S3cr3tZ | ssh host sudo -S reboot", []string{"S3cr3tZ"}, []string{"ssh host sudo -S reboot"}},
		{"cat here-document | chpasswd", "cat <<EOF | chpasswd\nbob:S3cr3tZ\nEOF\nid bob", []string{"S3cr3tZ"}, []string{"cat <<EOF | chpasswd", "EOF\nid bob"}},
		{"cat here-string | chpasswd", "cat <<< 'bob:S3cr3tZ' | sudo chpasswd", []string{"S3cr3tZ"}, []string{"| sudo chpasswd"}},
		{"curl -K- config on stdin", `curl -K- <<< 'user = "bob:S3cr3tZ"'`, []string{"S3cr3tZ"}, []string{"curl -K- <<<"}},
		{"echo | curl --config -", "echo 'user = bob:S3cr3tZ' | curl --config - https://x", []string{"S3cr3tZ"}, []string{"curl --config - https://x"}},
		{"curl -K file kept", "curl -K ~/.curlrc https://x", nil, []string{"curl -K ~/.curlrc https://x"}},
		{"credential.helper kept", "git config --global credential.helper 'store --file ~/.creds'", nil, []string{"credential.helper 'store --file ~/.creds'"}},
		{"echo then passwd kept", "echo hi; passwd bob", nil, []string{"echo hi; passwd bob"}},
		{"group then passwd kept", "(echo a; ls) ; passwd", nil, []string{"(echo a; ls) ; passwd"}},
		{"echo | tr kept", "echo 'a b' | tr a b", nil, []string{"echo 'a b' | tr a b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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
				t.Fatal("case checks nothing")
			}
		})
	}
}

// TestRedactArgsEnvMap: run_command's env object and secret-named JSON
// keys in any spelling lose their values; other variables keep theirs.
func TestRedactArgsEnvMap(t *testing.T) {
	in := `{"command":"psql -h db","env":{"PGPASSWORD":"S3cr3tZ","MYSQL_PWD":"S3cr3tY","REDISCLI_AUTH":"S3cr3tX",` +
		`"SSHPASS":"S3cr3tW","BORG_PASSPHRASE":"S3cr3tV","WIFI_PSK":"S3cr3tU","CF_API_KEY":"S3cr3tT",` +
		`"PWD":"/srv","pwd":"S3cr3tS","LANG":"C","PGUSER":"app"}}`
	got := string(RedactArgs(json.RawMessage(in), 0))
	for _, s := range []string{"S3cr3tZ", "S3cr3tY", "S3cr3tX", "S3cr3tW", "S3cr3tV", "S3cr3tU", "S3cr3tT", "S3cr3tS"} {
		if strings.Contains(got, s) {
			t.Errorf("RedactArgs kept %q: %s", s, got)
		}
	}
	for _, k := range []string{`"PWD":"/srv"`, `"LANG":"C"`, `"PGUSER":"app"`, `"command":"psql -h db"`} {
		if !strings.Contains(got, k) {
			t.Errorf("RedactArgs lost %s: %s", k, got)
		}
	}
}
