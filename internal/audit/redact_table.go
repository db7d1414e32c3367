package audit

// programs maps a program's name to its rules; programFamilies add the
// names that start with a prefix (mysqldump, mongosh, ldapmodify, …).
var programs = map[string]*program{
	"curl": curlLike, "curlie": curlLike, // curlie takes curl's options
	"http": httpie, "https": httpie, "httpie": httpie, "xh": httpie, "xhs": httpie,
	"ssh-keygen": {opts: []option{{name: "-N"}, {name: "-P"}}, cluster: true, flags: "ABHKLQUXcehiklopquvy"},
	"doctl":      {opts: []option{{name: "-t"}}},
	"glab": {opts: []option{{name: "-t", sub: "login"}, {name: "-v", sub: "variable"}, {name: "--value", sub: "variable"}},
		pos: []positional{{after: []string{"variable", "set"}, index: 1}, {after: []string{"variable", "update"}, index: 1}}},
	"wpa_cli":       {configSub: "*", pos: wpsPins},
	"mycli":         {opts: []option{{name: "-p"}}},
	"cqlsh":         {opts: []option{{name: "-p"}}},
	"rabbitmqadmin": {opts: []option{{name: "-p"}}},
	"tsql":          {opts: []option{{name: "-P"}}},
	"mssql-cli":     {opts: []option{{name: "-P"}}},
	"sqlplus":       oracleLike, "rman": oracleLike, "expdp": oracleLike, "impdp": oracleLike,
	"exp": oracleLike, "imp": oracleLike, "sqlldr": oracleLike, "dgmgrl": oracleLike,
	"sshpass":  {opts: []option{{name: "-p"}}, cluster: true, flags: "ehvV"},
	"htpasswd": {htpasswd: true}, "htpasswd2": {htpasswd: true}, // SUSE's name
	"vsql":    {opts: []option{{name: "-w"}, {name: "--password"}}},
	"snowsql": {opts: []option{{name: "-p"}, {name: "--password"}}},
	"beeline": {opts: []option{{name: "-p"}}},
	"rpk":     {opts: []option{{name: "-p"}, {name: "--password"}}},
	"p4":      {opts: []option{{name: "-P"}}},
	"psexec":  {opts: []option{{name: "-p"}}},
	"dsadd":   dsTool,
	"dsmod":   dsTool,
	"govc":    {opts: []option{{name: "-u", split: userinfo}}},
	"codecov": {opts: []option{{name: "-t"}, {name: "--token"}}},
	"snyk":    {pos: []positional{{after: []string{"auth"}, index: 0}}},
	"crudini": {configSub: "*"},
	"jq":      {configSub: "*"},
	"hadoop":  {opts: []option{{name: "-value", sub: "credential"}}},
	"qpdf":    {opts: []option{{name: "--encrypt", nth: 1}, {name: "--encrypt", nth: 2}}},
	"salt":    saltLike, "salt-call": saltLike, "salt-ssh": saltLike,
	"steghide": {opts: []option{{name: "-p"}, {name: "--passphrase"}}},
	// winrs -u:bob -p:pw, /p:pw (Windows' remote shell).
	"winrs":        {slash: true, opts: []option{{name: "-p:"}, {name: "/p:"}, {name: "-password:"}, {name: "/password:"}}},
	"raspi-config": {pos: []positional{{after: []string{"nonint", "do_wifi_ssid_passphrase"}, index: 1}}},
	"docker":       registryLogin, "podman": podmanLike, "nerdctl": registryLogin, "buildah": podmanLike,
	"helm": registryLogin, "crane": registryLogin, "regctl": registryLogin,
	"finch": registryLogin, "singularity": registryLogin, "apptainer": registryLogin,
	"cosign": registryLogin, "notation": registryLogin, "ko": registryLogin, "gcrane": registryLogin,
	// oras push, pull, login … all take -p; ctr pulls with -u user:password.
	"oras":  {opts: []option{{name: "-p"}}},
	"conan": registryLogin,
	"ctr":   {opts: []option{{name: "-u", split: afterColon}, {name: "--user", split: afterColon}}},
	"skopeo": {opts: []option{
		{name: "-p", sub: "login"}, {name: "--creds", split: afterColon},
		{name: "--src-creds", split: afterColon}, {name: "--dest-creds", split: afterColon},
	}},
	"redis-cli": redisLike, "keydb-cli": redisLike, "valkey-cli": redisLike, "redis-benchmark": redisLike,
	"valkey-benchmark": redisLike,
	"openssl": {noAttach: true, opts: []option{
		{name: "-passin", split: passArg}, {name: "-passout", split: passArg}, {name: "-pass", split: passArg},
		{name: "-password", split: passArg}, {name: "-k"}, {name: "-K"}, {name: "-key", sub: "ca"},
	}, pos: []positional{{after: []string{"passwd"}, every: true}}},
	// rpcclient -c 'setuserinfo2 bob 23 NEWPW', chgpasswd USER OLD NEW.
	"rpcclient": {opts: sambaLike.opts, cluster: true, flags: sambaFlags, pos: []positional{
		{after: []string{"setuserinfo2"}, index: 2}, {after: []string{"setuserinfo"}, index: 2},
		{after: []string{"chgpasswd"}, index: 1, and: 2}, {after: []string{"chgpasswd2"}, index: 1, and: 2},
		{after: []string{"chgpasswd3"}, index: 1, and: 2},
	}},
	"smbcacls": sambaLike, "smbcquotas": sambaLike,
	"smbget": sambaLike, "smbtree": sambaLike,
	"mount.cifs": {opts: sambaLike.opts, userSep: '%'}, "mount.smb3": {opts: sambaLike.opts, userSep: '%'},
	"mount": {userSep: '%'}, "curlftpfs": {userSep: ':', pos: []positional{{every: true, split: userinfo}}},
	// smbclient //server/share PASSWORD; net [rpc] user add NAME PASSWORD.
	"smbclient": {opts: sambaLike.opts, cluster: true, flags: sambaFlags + "gqBE", pos: []positional{{index: 1}}, valued: smbclientValued},
	// Windows: net user NAME PW [/add], net use [D:] \\h\s PW [/user:…].
	"net": {opts: sambaLike.opts, cluster: true, flags: sambaFlags + "flv", winOpts: true, pos: []positional{
		{after: []string{"user", "add"}, index: 1}, {after: []string{"password"}, index: 1},
		{after: []string{"user"}, index: 1, notFirst: []string{"add", "delete", "del", "info", "set", "list", "rename", "edit"}},
		{after: []string{"use"}, afterUNC: true},
	}},
	// Secret stores set NAME VALUE as two words.
	"doppler": {configSub: "set", pos: []positional{{after: []string{"secrets", "set"}, every: true, split: afterEquals, pair: true}},
		valued: []string{"-p", "--project", "-c", "--config", "--scope", "--token", "--type", "--visibility", "--configuration"}},
	// travis env set NAME VALUE, netlify env:set NAME VALUE (its set
	// read as a word of its own): by the name.
	"travis": {configSub: "env"}, "netlify": {configSub: "set"},
	// What a secret store stores is a secret whatever its name: fly
	// secrets set A=… B=…, nomad var put path A=…, chamber write svc
	// key V. Platforms' config setters (heroku config:set, netlify
	// env:set) also set plain settings (NODE_VERSION 20), and are read
	// by the name.
	"fly": storeSet, "flyctl": storeSet, "supabase": storeSet, "infisical": storeSet,
	"nomad": {goFlags: true, opts: []option{{name: "-encrypt"}}, pos: []positional{
		{after: []string{"var", "put"}, every: true, split: afterEquals},
		// operator [gossip] keyring install|use|remove KEY: the gossip
		// encryption key, as agent -encrypt's.
		{after: []string{"keyring", "install"}, index: 0}, {after: []string{"keyring", "use"}, index: 0},
		{after: []string{"keyring", "remove"}, index: 0},
	}},
	"chamber": {pos: []positional{{after: []string{"write"}, index: 2}}},
	"sops":    {pos: []positional{{after: []string{"set"}, index: 2}}},
	// vercel secrets add NAME VALUE (the legacy secrets store).
	"vercel":   {pos: []positional{{after: []string{"secrets", "add"}, index: 1}, {after: []string{"secret", "add"}, index: 1}}},
	"akeyless": {opts: []option{{name: "--value"}}},
	"conjur":   {opts: []option{{name: "-v", sub: "variable"}, {name: "--value", sub: "variable"}}},
	"berglas":  {pos: []positional{{after: []string{"create"}, index: 1}, {after: []string{"update"}, index: 1}}},
	"dotenvx":  {pos: []positional{{after: []string{"set"}, index: 1}}},
	"hdbsql":   {opts: []option{{name: "-p"}}},
	// NSS's pk12util -W (the PKCS#12 file's) and -K (the key
	// database's) passwords; Windows' certutil -p for a PFX; smbencrypt
	// PW… prints the hashes of each password it is given.
	"pk12util":   {opts: []option{{name: "-W"}, {name: "-K"}}},
	"certutil":   {opts: []option{{name: "-p"}}},
	"smbencrypt": {pos: []positional{{every: true}}},
	// Settings stores set KEY VALUE: macOS's defaults write DOMAIN KEY
	// VALUE, augtool set /files/…/password VALUE (by the path's last
	// segment), crudini --set FILE SECTION KEY VALUE.
	"defaults": {configSub: "write"}, "augtool": {configSub: "set"},
	// A key's option and its value's apart: reg add KEY /v Password /d
	// …, plutil -replace password -string …, xmlstarlet ed -u
	// //password -v ….
	"reg":        {winOpts: true, keyed: &keyedOpts{key: []string{"/v"}, value: []string{"/d"}}},
	"plutil":     {keyed: &keyedOpts{key: []string{"-replace", "-insert"}, value: []string{"-string", "-data", "-json", "-xml"}}},
	"xmlstarlet": {keyed: &keyedOpts{key: []string{"-u", "--update", "-n", "--name"}, value: []string{"-v", "--value"}}},
	// drush upwd NAME PW, user:password, user-password.
	"drush": {pos: []positional{{after: []string{"upwd"}, index: 1}, {after: []string{"password"}, index: 1}, // user:password
		{after: []string{"user-password"}, index: 1}}},
	"schtasks": {slash: true, opts: []option{{name: "/rp:"}, {name: "/p:"}}},
	"netdom":   {slash: true, opts: []option{{name: "/passwordd:"}, {name: "/passwordo:"}}},
	"cmdkey":   {slash: true, opts: []option{{name: "/pass:"}}},
	"vmrun":    {noAttach: true, opts: []option{{name: "-gp"}, {name: "-vp"}}},
	"dsquery":  dsTool, "dsget": dsTool, "dsrm": dsTool, "dsmove": dsTool,
	"samba-tool":   {pos: []positional{{after: []string{"user", "create"}, index: 1}, {after: []string{"user", "add"}, index: 1}}},
	"smbmap":       {opts: []option{{name: "-p"}, {name: "-H"}}},
	"nxc":          {opts: []option{{name: "-p"}, {name: "-H"}}},
	"netexec":      {opts: []option{{name: "-p"}, {name: "-H"}}},
	"crackmapexec": {opts: []option{{name: "-p"}, {name: "-H"}}},
	"ldappasswd":   {cluster: true, opts: []option{{name: "-w"}, {name: "-s"}, {name: "-a"}}},
	"vault":        vaultLike,
	"bao":          vaultLike,
	// consul agent -encrypt KEY: the gossip encryption key.
	// consul kv put app/password PW, etcdctl put /app/db_pass PW,
	// zkCli.sh create /app/password PW: the value of a key whose last
	// path segment names a secret (configValue reads the segment).
	"consul": {goFlags: true, opts: []option{{name: "-encrypt"}, {name: "-install"}, {name: "-use"}, {name: "-remove"}}, configSub: "put", pos: []positional{{after: []string{"set-agent-token"}, index: 1}}},
	// Join and enrolment tokens given short or as positionals: netbird
	// up -k, k3s/rke2 agent -t, gitlab-runner register -r, netclient
	// join -t, cloudflared service install TOKEN, ngrok authtoken TOKEN.
	"netbird":       {opts: []option{{name: "-k", sub: "up"}, {name: "-k", sub: "login"}}},
	"k3s":           {opts: []option{{name: "-t", sub: "agent"}, {name: "-t", sub: "server"}}},
	"rke2":          {opts: []option{{name: "-t", sub: "agent"}, {name: "-t", sub: "server"}}},
	"gitlab-runner": {opts: []option{{name: "-r", sub: "register"}}},
	"netclient":     {opts: []option{{name: "-t", sub: "join"}}},
	"netmaker":      {opts: []option{{name: "-t", sub: "join"}}},
	"cloudflared":   {pos: []positional{{after: []string{"service", "install"}, index: 0}}},
	"ngrok":         {pos: []positional{{after: []string{"add-authtoken"}, index: 0}, {after: []string{"authtoken"}, index: 0}}},
	"cargo":         {pos: []positional{{after: []string{"login"}, every: true}}},
	"cf":            {opts: []option{{name: "-p", sub: "login"}}, pos: []positional{{after: []string{"auth"}, index: 1}}}, // Cloud Foundry
	"twine":         {opts: []option{{name: "-p"}}},
	// Python packaging's publishers: hatch publish -a/--auth, uv
	// publish -p/--password and -t/--token.
	"hatch": {opts: []option{{name: "-a", sub: "publish"}, {name: "--auth", sub: "publish"}}},
	"uv":    {opts: []option{{name: "-p", sub: "publish"}, {name: "-t", sub: "publish"}}},
	"mysqladmin": {opts: mysqlLike.opts, prompt: mysqlLike.prompt, cluster: true, flags: mysqlFlags,
		pos: []positional{{after: []string{"password"}, index: 0}}},
	"mysqlsh":    {opts: mysqlLike.opts, pos: []positional{{every: true, split: userinfo}}},
	"keytool":    {noAttach: true, opts: []option{{name: "-new"}}},
	"slappasswd": {opts: []option{{name: "-s"}}, cluster: true, flags: "gnuv"},
	"evil-winrm": {opts: []option{{name: "-p"}, {name: "-H"}}},
	"hydra":      {opts: []option{{name: "-p"}}},
	// dotnet user-secrets set KEY VALUE: the store of a project's secrets.
	"dotnet": {opts: []option{{name: "-k", sub: "push"}, {name: "-p", sub: "source"}},
		pos: []positional{{after: []string{"user-secrets", "set"}, index: 1}}},
	// wp config set DB_PASSWORD PW: wp-config.php's constants, by the name.
	"wp":       {configSub: "config set"},
	"xfreerdp": freerdp, "xfreerdp3": freerdp, "wlfreerdp": freerdp, "sdl-freerdp": freerdp, "sdl-freerdp3": freerdp,
	// busybox ftpget/ftpput -u bob -p pw.
	"ftpget": {opts: []option{{name: "-p"}, {name: "--password"}}}, "ftpput": {opts: []option{{name: "-p"}, {name: "--password"}}},
	// lftp's open -u bob,pw after a ';' of its -e or -c script.
	"open": {cmdOnly: true, opts: []option{{name: "-u", split: afterComma}, {name: "--user", split: afterComma}}},
	// lftp -u bob,pw; lftp -e 'user bob pw; ls' (a command of its script).
	"lftp": {opts: []option{{name: "-u", split: afterComma}, {name: "--user", split: afterComma}},
		pos: []positional{{after: []string{"user"}, index: 1}}},
	"ipmitool": {opts: []option{{name: "-P"}, {name: "-k"}, {name: "-y"}}, cluster: true, flags: "46hVvcgsEKYaZ", pos: []positional{
		// user set password ID PASS first: the look-ahead the first
		// match starts is the only one; lan set CHANNEL password PASS.
		{after: []string{"user", "set", "password"}, index: 1}, {after: []string{"password"}, index: 0},
	}},
	"sqlcmd": {opts: []option{{name: "-P"}}},
	"bcp":    {opts: []option{{name: "-P"}}},
	"racadm": {opts: []option{{name: "-p"}}, configSub: "set"}, "idracadm7": {opts: []option{{name: "-p"}}, configSub: "set"},
	"ilorest": {opts: []option{{name: "-p"}, {name: "--password"}}},
	// useradd -mp HASH, usermod -Lp HASH: the flags before -p in a cluster.
	"useradd": {opts: []option{{name: "-p"}}, cluster: true, flags: "DlmMNorU"},
	"usermod": {opts: []option{{name: "-p"}}, cluster: true, flags: "aLUmo"},
	// zip -rP secret, unzip -oP secret: the flags before -P in a cluster.
	"zip":           {cluster: true, flags: "0123456789ADFJKLRSTUX$@cdefghjklmoqruvwyz", opts: []option{{name: "-P"}}},
	"unzip":         {cluster: true, flags: "aCcfjKLlMnoqstTuvVXzZ", opts: []option{{name: "-P"}}},
	"zipcloak":      {opts: []option{{name: "-P"}}},
	"rar":           rarLike,
	"unrar":         rarLike,
	"mosquitto_pub": {opts: []option{{name: "-P"}}},
	"mosquitto_sub": {opts: []option{{name: "-P"}}},
	"mosquitto_rr":  {opts: []option{{name: "-P"}}},
	"plink":         {noAttach: true, opts: []option{{name: "-pw"}}},
	"pscp":          {noAttach: true, opts: []option{{name: "-pw"}}},
	"psftp":         {noAttach: true, opts: []option{{name: "-pw"}}},
	"rdesktop":      {opts: []option{{name: "-p"}}},
	"doveadm":       {opts: []option{{name: "-p", sub: "pw"}}},
	"dovecot":       {opts: []option{{name: "-p", sub: "pw"}}}, // dovecot pw runs doveadm pw
	"dovecotpw":     {opts: []option{{name: "-p"}}},            // its name before doveadm
	// gh secret set NAME -b VALUE; gh variable set takes a value the
	// same way, and what an agent stores so is as likely a credential.
	"gh": {opts: []option{{name: "-b", sub: "secret"}, {name: "--body", sub: "secret"},
		{name: "-b", sub: "variable"}, {name: "--body", sub: "variable"}}},
	"kubectl":   {opts: []option{{name: "--from-literal", split: afterEquals}}},
	"kustomize": {opts: []option{{name: "--from-literal", split: afterEquals, sub: "secret"}}}, // edit add secret, not configmap
	"oc":        {opts: []option{{name: "--from-literal", split: afterEquals}, {name: "-p", sub: "login"}}},
	"kubeadm":   {pos: []positional{{after: []string{"token", "create"}, index: 0}}},
	"etcdctl":   {opts: []option{{name: "--user", split: afterColon}}, configSub: "put", pos: []positional{{after: []string{"user", "add"}, index: 0, split: afterColon}}},
	// Databases' own clients.
	"mydumper": {opts: []option{{name: "-p"}}}, "myloader": {opts: []option{{name: "-p"}}},
	"osql": {opts: []option{{name: "-P"}}},
	// isql DSN USER PASSWORD (unixODBC), isql -P PASSWORD (Sybase).
	"isql": {opts: []option{{name: "-P"}}, pos: []positional{{index: 2}}},
	// microk8s join HOST:PORT/TOKEN: the token after the slash.
	"microk8s": {pos: []positional{{after: []string{"join"}, index: 0, split: oracleLogin}}},
	"sqlcl":    oracleLike, "sql": {cmdOnly: true, pos: oracleLike.pos},
	"db2": {pos: []positional{{after: []string{"using"}, index: 0}}},
	"influx": {opts: []option{{name: "-t"}, {name: "--token"}, {name: "-p", sub: "setup"}, {name: "-p", sub: "password"},
		{name: "-p", sub: "user"}, {name: "--password"}, {name: "-password"}}},
	"neo4j-admin":   {pos: []positional{{after: []string{"set-initial-password"}, index: 0}}},
	"cypher-shell":  {opts: []option{{name: "-p"}}},
	"couchbase-cli": {opts: []option{{name: "-p"}}}, "cbq": {opts: []option{{name: "-p"}}},
	// Archives and encrypted files.
	"unar":   {noAttach: true, opts: []option{{name: "-p"}, {name: "-password"}}},
	"lsar":   {noAttach: true, opts: []option{{name: "-p"}, {name: "-password"}}},
	"funzip": {opts: []option{{name: "-", attachedOnly: true}}}, // funzip -PASSWORD f.zip
	"ccrypt": {opts: []option{{name: "-K"}, {name: "--key"}}}, "mcrypt": {opts: []option{{name: "-k"}}},
	"aescrypt": {opts: []option{{name: "-p"}}}, "veracrypt": {opts: []option{{name: "-p"}}},
	"truecrypt": {opts: []option{{name: "-p"}}}, "pdftk": {configSub: "*"},
	// Load and login testers, mail senders.
	"ab":        {opts: []option{{name: "-A", split: afterColon}, {name: "-P", split: afterColon}}, cluster: true, flags: "lrkVhwiIdSq"},
	"swaks":     {opts: []option{{name: "-ap"}}},
	"sendemail": {opts: []option{{name: "-xp"}}},
	"medusa":    {opts: []option{{name: "-p"}}},
	"ipmiutil":  {opts: []option{{name: "-P"}}}, "ipmiconsole": ipmiLike,
	"git":      {configSub: "config"},
	"npm":      {configSub: "config set"},
	"yarn":     {configSub: "config set"},
	"pnpm":     {configSub: "config set"},
	"pip":      {configSub: "config"},
	"pip3":     {configSub: "config"},
	"poetry":   {configSub: "config", pos: httpBasic.pos, opts: []option{{name: "-p", sub: "publish"}, {name: "--password", sub: "publish"}}},
	"composer": httpBasic,
	"aws":      {configSub: "configure", opts: []option{{name: "--value", sub: "put-parameter"}}},
	"az": {opts: []option{
		{name: "-p", sub: "login"}, {name: "--password", sub: "login"}, {name: "--value", sub: "secret"},
		{name: "-p", sub: "user"}, {name: "--admin-password"},
	}},
	"nmcli": {configSub: "*"},
	// lxc config set core.trust_password PW, lxc config set c1 environment.DB_PASSWORD PW.
	"lxc": {configSub: "config"}, "incus": {configSub: "config"},
	"launchctl": {configSub: "setenv"},
	"setx":      {configSub: "*"},
	"setenv":    {configSub: "*"},                // csh
	"set":       {configSub: "*", cmdOnly: true}, // fish: set -gx NAME value
	"mc":        minioClient, "mcli": minioClient, "minio-client": minioClient, "minio-mc": minioClient,
	"bundle": bundler, "bundler": bundler,
	"youtube-dl": ytdl, "yt-dlp": ytdl, "yt-dlc": ytdl, "youtube-dlc": ytdl, "gallery-dl": ytdl,
	"rabbitmqctl": {pos: []positional{
		{after: []string{"add_user"}, index: 1}, {after: []string{"change_password"}, index: 1},
		{after: []string{"authenticate_user"}, index: 1},
	}},
	"wpa_passphrase": {pos: []positional{{index: 1}}},
	// Appliances' own user tools: Synology's synouser --setpw USER PW and
	// --add USER PW …, Pi-hole's web password, Grafana's admin reset,
	// Nextcloud's occ …:set of a secret-named key, Gitea's and
	// Forgejo's change-password -p.
	"synouser":            {opts: []option{{name: "--setpw", nth: 1}, {name: "--add", nth: 1}}},
	"pihole":              {opts: []option{{name: "-p"}}, pos: []positional{{after: []string{"setpassword"}, index: 0}}},
	"grafana-cli":         {pos: []positional{{after: []string{"reset-admin-password"}, index: 0}}},
	"grafana":             {pos: []positional{{after: []string{"reset-admin-password"}, index: 0}}},
	"occ":                 {opts: []option{{name: "--value", afterKey: true}}},
	"gitea":               {opts: []option{{name: "-p", sub: "change-password"}}},
	"forgejo":             {opts: []option{{name: "-p", sub: "change-password"}}},
	"transmission-remote": {opts: []option{{name: "-n", split: afterColon}, {name: "--auth", split: afterColon}}},
	// deluge-console "connect HOST[:PORT] USER PASSWORD; info", its
	// commands as arguments or one string.
	// Active Directory tools beside impacket take -u USER -p PASSWORD
	// and hashes.
	"bloodhound-python": adTool, "bloodhound-ce-python": adTool, "certipy": adTool, "certipy-ad": adTool,
	"ldapdomaindump": adTool, "coercer": adTool, "windapsearch": adTool, "lsassy": adTool, "adidnsdump": adTool,
	"bloodyAD": adTool, "ldeep": adTool, "targetedKerberoast.py": adTool, "pywhisker": adTool, "pywhisker.py": adTool,
	// WPS PINs, iwconfig's WEP key, create_ap's and lnxrouter's passphrase.
	"iwconfig":  {pos: []positional{{after: []string{"key"}, index: 0}}},
	"create_ap": {pos: []positional{{index: 3}}, valued: []string{"-c", "-w", "-g", "-e", "-m", "--country", "--freq-band", "--driver", "--mac", "--dhcp-dns", "--mkconfig", "--config", "--ieee80211"}},
	"lnxrouter": {opts: []option{{name: "-p"}}},
	// virsh set-user-password DOMAIN USER PASSWORD sets a guest's
	// account password through its agent.
	"virsh": {pos: []positional{{after: []string{"set-user-password"}, index: 2}}},
	// oathtool's KEY is the HOTP/TOTP seed, good for every code;
	// coturn's test client takes the TURN password with -w.
	"oathtool":          {pos: []positional{{index: 0}}, valued: []string{"-c", "--counter", "-d", "--digits", "-w", "--window", "-s", "--time-step-size", "-S", "--start-time", "-N", "--now"}},
	"turnutils_uclient": {opts: []option{{name: "-w"}}},
	// Enrolment codes as positionals or short options: Ubuntu Pro's
	// attach TOKEN, SUSEConnect -r CODE, husarnet join CODE, zrok enable
	// TOKEN, frpc -t, chisel --auth user:pass, ziti edge login -p.
	"pro":         {cmdOnly: true, pos: []positional{{after: []string{"attach"}, index: 0}}},
	"ua":          {cmdOnly: true, pos: []positional{{after: []string{"attach"}, index: 0}}},
	"SUSEConnect": {opts: []option{{name: "-r"}, {name: "--regcode"}}},
	"husarnet":    {pos: []positional{{after: []string{"join"}, index: 0}}},
	"zrok":        {pos: []positional{{after: []string{"enable"}, index: 0}}},
	"frpc":        {opts: []option{{name: "-t"}}},
	"chisel":      {opts: []option{{name: "--auth", split: afterColon}}},
	"ziti":        {opts: []option{{name: "-p", sub: "login"}}},
	"amulecmd":    {opts: []option{{name: "-P"}}},
	"midclt":      {pos: []positional{{after: []string{"auth.login"}, index: 1}, {after: []string{"user.set_root_password"}, index: 0}}},
	// connect HOST[:PORT] USER PASSWORD, or HOST PORT USER PASSWORD: the
	// fourth word is the password when a port comes apart.
	"deluge-console": {opts: []option{{name: "-P"}, {name: "--password"}}, pos: []positional{{after: []string{"connect"}, index: 2, port: true}}},
	"rclone":         {configSub: "config", pos: []positional{{after: []string{"obscure"}, index: 0}}},
	// Secrets given to be stored, hashed or obscured, and unlocks of
	// password managers: the positional or option is the secret itself.
	// bw create item ENCODED, bw edit item ID ENCODED: base64 JSON holding the login.
	"bw": {pos: []positional{{after: []string{"unlock"}, index: 0}, {after: []string{"login"}, index: 1},
		{after: []string{"create"}, index: 1}, {after: []string{"edit"}, index: 2}}},
	"ansible-vault": {pos: []positional{{after: []string{"encrypt_string"}, every: true}},
		valued: []string{"--stdin-name", "-n", "--name", "--vault-id", "--encrypt-vault-id", "--vault-password-file", "--output"}},
	"caddy":            {opts: []option{{name: "-p", sub: "hash-password"}, {name: "--plaintext", sub: "hash-password"}}},
	"mosquitto_passwd": {pos: []positional{{index: 2}}}, // -b FILE USER PASSWORD
	"kadmin":           {opts: []option{{name: "-w"}}},
	"security": {opts: []option{{name: "-w", sub: "add-generic-password"}, {name: "-w", sub: "add-internet-password"},
		{name: "-p", sub: "unlock-keychain"}, {name: "-p", sub: "create-keychain"}}},
	"pulumi":      {pos: []positional{{after: []string{"config", "set"}, index: 1}}},
	"hostapd_cli": {configSub: "*", pos: wpsPins},
	"iw":          {pos: []positional{{after: []string{"key"}, index: 0, split: afterColon}}}, // connect SSID key 0:WEPKEY
	"nuget": {cmdOnly: true, opts: []option{{name: "-ApiKey"}}, // not dotnet nuget, which has its own rules
		pos: []positional{{after: []string{"setapikey"}, index: 0}, {after: []string{"push"}, index: 1}}},
	"zkCli.sh":           zkCli, // addauth digest user:pw; create or set /app/password PW
	"zkCli":              zkCli,
	"zookeeper-shell.sh": zkCli,
	"zookeeper-shell":    zkCli,
	"swift":              {opts: []option{{name: "-K"}, {name: "--key"}}},
	"keyctl":             {pos: []positional{{after: []string{"add"}, index: 2}}}, // add TYPE DESC DATA KEYRING
	"nikto":              {noAttach: true, opts: []option{{name: "-id", split: afterColon}}},
	"wfuzz":              {opts: []option{{name: "--basic", split: afterColon}, {name: "--ntlm", split: afterColon}, {name: "--digest", split: afterColon}}},
	"hey":                {opts: []option{{name: "-a", split: afterColon}}},
	"memtier_benchmark":  {opts: []option{{name: "-a"}, {name: "--authenticate"}}},
	// PowerShell's ConvertTo-SecureString "pw" -AsPlainText.
	"ConvertTo-SecureString": secureString, "convertto-securestring": secureString, // PowerShell reads names in any case
	// Nagios' SNMP check takes the community as -C; net-snmp's user
	// creators take SNMPv3 passphrases as the snmp* commands do.
	"check_snmp":              {opts: []option{{name: "-C"}, {name: "-A"}, {name: "-X"}}},
	"net-snmp-create-v3-user": {opts: []option{{name: "-A"}, {name: "-X"}}},
	"net-snmp-config":         {opts: []option{{name: "-A"}, {name: "-X"}}},
	"mkpasswd":                {pos: []positional{{every: true}}, valued: []string{"-m", "--method", "-S", "--salt", "-R", "--rounds", "-P", "--password-fd"}},
	"psexec.py":               impacket, "smbexec.py": impacket, "wmiexec.py": impacket, "atexec.py": impacket,
	"dcomexec.py": impacket, "secretsdump.py": impacket, "GetUserSPNs.py": impacket,
	"GetNPUsers.py": impacket, "getTGT.py": impacket, "mssqlclient.py": impacket, "smbclient.py": impacket,
	"GetADUsers.py": impacket, "GetADComputers.py": impacket, "GetLAPSPassword.py": impacket, "Get-GPPPassword.py": impacket,
	"getST.py": impacket, "getPac.py": impacket, "lookupsid.py": impacket, "rpcdump.py": impacket, "rpcmap.py": impacket,
	"samrdump.py": impacket, "services.py": impacket, "reg.py": impacket, "net.py": impacket, "netview.py": impacket,
	"wmiquery.py": impacket, "wmipersist.py": impacket, "findDelegation.py": impacket, "addcomputer.py": impacket,
	"rbcd.py": impacket, "dacledit.py": impacket, "owneredit.py": impacket, "changepasswd.py": impacket,
	"smbpasswd.py": impacket, "ticketer.py": impacket, "raiseChild.py": impacket, "goldenPac.py": impacket,
	"keylistattack.py": impacket, "machine_role.py": impacket, "mqtt_check.py": impacket, "rdp_check.py": impacket,
	"tstool.py": impacket, "DumpNTLMInfo.py": impacket, "exchanger.py": impacket, "getArch.py": impacket,
	"describeTicket.py": impacket, "sambaPipe.py": impacket, "mimikatz.py": impacket, "badsuccessor.py": impacket,
	// Samba-style user%password in other programs: -U takes it in any
	// program (see sambaUser); wbinfo -a and enum4linux, kerbrute -p.
	"wbinfo":        {opts: []option{{name: "-a", split: afterPercent}, {name: "--authenticate", split: afterPercent}}},
	"enum4linux":    {opts: []option{{name: "-p"}}},
	"enum4linux-ng": {opts: []option{{name: "-p"}, {name: "-H"}}},
	"kerbrute":      {opts: []option{{name: "-p"}, {name: "--password"}}},
	"psql":          postgresLike, "createdb": postgresLike, "createuser": createUser, "dropdb": postgresLike,
	"dropuser": postgresLike, "vacuumdb": postgresLike, "reindexdb": postgresLike, "clusterdb": postgresLike,
	"pgbench": postgresLike,
	"ssh":     noRules, "scp": noRules, "sftp": noRules, "rsync": noRules, "sudo": noRules,
	"env": noRules, "sh": noRules, "bash": noRules, "xargs": noRules, "timeout": noRules,
}

var programFamilies = []struct {
	prefix string
	p      *program
}{
	{"mysql", mysqlLike}, {"mariadb", mysqlLike}, {"mongo", mongoLike}, {"ldap", ldapLike},
	{"snmp", snmpLike}, {"pt-", &program{dsn: true, opts: []option{{name: "-p"}}}}, {"pg_", postgresLike}, {"ipmi-", ipmiLike}, {"7z", archiver}, {"ncftp", mongoLike}, {"impacket-", impacket},
}

// smbclientValued are smbclient's options that take the next word as
// their value; its first other positional is the service, the second the
// password, wherever the options put them (smbclient //nas/share -U bob
// -W DOM SECRET).
var smbclientValued = []string{
	"-R", "-M", "-I", "-L", "-m", "-T", "-D", "-c", "-b", "-t", "-p", "-d", "-s", "-l", "-O", "-n",
	"-W", "-i", "-U", "-A", "-S", "-r", "-o", "--name-resolve", "--message", "--ip-address", "--list",
	"--max-protocol", "--tar", "--directory", "--command", "--send-buffer", "--timeout", "--port",
	"--debuglevel", "--configfile", "--log-basename", "--socket-options", "--netbiosname",
	"--workgroup", "--scope", "--user", "--authentication-file", "--signing", "--realm", "--option",
	"--password", "--client-protection", "--krb5-ccache",
	"--max-connections",
}

// secureString is ConvertTo-SecureString's: the literal it is given.
var secureString = &program{pos: []positional{{index: 0}}, opts: []option{{name: "-String"}}}

// storeSet is the rules of secret stores whose secrets set stores every
// NAME=VALUE after it.
var storeSet = &program{pos: []positional{{after: []string{"secrets", "set"}, every: true, split: afterEquals}}}

// adTool is the rules of Active Directory tools that take -p PASSWORD
// and NTLM hashes.
var adTool = &program{opts: []option{{name: "-p"}, {name: "--password"}, {name: "-hashes"}, {name: "--hashes"}}}

// wpsPins are the WPS PINs hostapd_cli and wpa_cli are given: wps_pin
// any PIN, wps_ap_pin set PIN, wps_reg BSSID PIN.
var wpsPins = []positional{
	{after: []string{"wps_pin"}, index: 1}, {after: []string{"wps_ap_pin", "set"}, index: 0}, {after: []string{"wps_reg"}, index: 1},
}
