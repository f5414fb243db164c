package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/trench-games/trench/cmd/trench/internal/bench"
	"github.com/trench-games/trench/db"
)

// The README's "Deploying" section, as a self-hoster reads it: its fenced
// code blocks, each under the bold lead of its paragraph ("1. Download
// and check.", "Upgrading.", ...).

// deployBlock is one fenced code block of the section.
type deployBlock struct {
	Step string // the bold lead of the last paragraph that had one
	Lang string // the fence's info string: sh, ini, nginx or ""
	Text string
}

// deployCommand is one command of an sh block, its continuation lines
// joined. Skip is the reason given in a trailing "# needs …" comment
// (root, systemd, a real domain), "" for a command the test runs.
type deployCommand struct {
	Line string
	Skip string
}

var boldLead = regexp.MustCompile(`^\*\*(.+?)\*\*`)

// readDeploying returns the code blocks of the README's "Deploying"
// section, in order.
func readDeploying(t *testing.T) []deployBlock {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []deployBlock
	in, step := false, ""
	var cur *deployBlock
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur != nil && strings.HasPrefix(line, "```"):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.Text += line + "\n"
		case line == "## Deploying":
			in = true
		case in && strings.HasPrefix(line, "## "):
			in = false
		case in && strings.HasPrefix(line, "```"):
			cur = &deployBlock{Step: step, Lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case in:
			if m := boldLead.FindStringSubmatch(line); m != nil {
				step = m[1]
			}
		}
	}
	if len(blocks) == 0 {
		t.Fatal(`README.md has no code blocks under "## Deploying"`)
	}
	return blocks
}

var needsComment = regexp.MustCompile(`\s+#\s*(needs .*)$`)

// commands splits an sh block into its commands.
func (b deployBlock) commands() []deployCommand {
	var out []deployCommand
	var pending string
	for _, line := range strings.Split(b.Text, "\n") {
		if strings.HasSuffix(line, `\`) {
			pending += strings.TrimSuffix(line, `\`)
			continue
		}
		line = strings.TrimSpace(pending + line)
		pending = ""
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := deployCommand{Line: line}
		if m := needsComment.FindStringSubmatchIndex(line); m != nil {
			c.Skip = line[m[2]:m[3]]
			c.Line = strings.TrimSpace(line[:m[0]])
		}
		out = append(out, c)
	}
	return out
}

// deployment is a machine the section is followed on: a root directory
// standing for / (usr/local/bin, var/lib/trench, etc/systemd/system),
// loopback ports for 443, 80 and the reverse proxy's upstream, and an
// ACME server standing for Let's Encrypt.
type deployment struct {
	t         *testing.T
	root      string
	acme      *pebble
	httpsAddr string // stands for :443
	httpAddr  string // stands for :80
	upstream  string // stands for 127.0.0.1:8080
	paths     *strings.Replacer
	env       []string
}

func newDeployment(t *testing.T) *deployment {
	d := &deployment{t: t, root: t.TempDir(), acme: startPebble(t),
		httpsAddr: freeAddr(t), httpAddr: freeAddr(t), upstream: freeAddr(t)}
	for _, dir := range []string{"usr/local/bin", "var/lib", "etc/systemd/system"} {
		if err := os.MkdirAll(filepath.Join(d.root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	d.paths = strings.NewReplacer(
		"/usr/local/bin/", d.root+"/usr/local/bin/",
		"/var/lib/trench", d.root+"/var/lib/trench",
		"/etc/systemd/system/", d.root+"/etc/systemd/system/",
		"127.0.0.1:8080", d.upstream,
		"trench-linux-amd64", downloadName(),
	)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TRENCH_") && !strings.HasPrefix(kv, "PATH=") {
			d.env = append(d.env, kv)
		}
	}
	// The ports a real machine would use need root; the certificate comes
	// from the test's ACME server instead of Let's Encrypt.
	d.env = append(d.env, "PATH="+filepath.Join(d.root, "usr/local/bin")+string(os.PathListSeparator)+os.Getenv("PATH"),
		"TRENCH_ADDR="+d.httpsAddr, "TRENCH_HTTP_ADDR="+d.httpAddr,
		"TRENCH_ACME_DIRECTORY="+d.acme.Directory, "TRENCH_ACME_CA_ROOTS="+d.acme.Roots)
	return d
}

// downloadName is the release file of this machine's platform.
func downloadName() string {
	name := "trench-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

// download makes a directory as a release download leaves it: the binary
// bin under its release name and SHA256SUMS listing it (and the other
// platforms, absent here). With corrupt, the binary's last byte is
// changed after its sum was taken.
func (d *deployment) download(bin string, corrupt bool) string {
	t := d.t
	dir := t.TempDir()
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	sums := hex.EncodeToString(sum[:]) + "  " + downloadName() + "\n"
	for _, other := range []string{"trench-darwin-arm64", "trench-windows-amd64.exe"} {
		sums += strings.Repeat("0", 64) + "  " + other + "\n"
	}
	if corrupt {
		b[len(b)-1] ^= 1
	}
	if err := os.WriteFile(filepath.Join(dir, downloadName()), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs a README command in dir with the deployment's paths, ports
// and environment, and returns its output.
func (d *deployment) run(dir, line string) (string, error) {
	cmd := exec.Command("sh", "-c", d.paths.Replace(line))
	cmd.Dir, cmd.Env = dir, d.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// server is a `trench serve` started from the README.
type server struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error
}

// start starts args (a README command, or a unit's ExecStart split into
// words) with env added to the deployment's environment, its output in
// log; it does not wait for it to answer.
func (d *deployment) start(dir string, args []string, env []string, log string) *server {
	t := d.t
	f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, append(append([]string{}, d.env...), env...), f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

// startLine starts a README command line (`trench serve …`) through sh.
func (d *deployment) startLine(dir, line, log string) *server {
	return d.start(dir, []string{"sh", "-c", "exec " + d.paths.Replace(line)}, nil, log)
}

// stop sends SIGTERM, as systemctl stop does, and wants a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		t.Fatalf("the server did not stop within 30 s of SIGTERM:\n%s", bench.Tail(s.log))
	}
	if s.err != nil {
		t.Fatalf("the server stopped with %v:\n%s", s.err, bench.Tail(s.log))
	}
}

// get asks url through hc until the server answers (it may be starting,
// or obtaining its certificate) and returns the answer with its body read.
func (s *server) get(t *testing.T, hc *http.Client, req func() *http.Request) (*http.Response, string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := hc.Do(req())
		if err == nil {
			b, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err == nil {
				return res, string(b)
			}
		}
		select {
		case <-s.done:
			t.Fatalf("the server ended (%v):\n%s", s.err, bench.Tail(s.log))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer within 60 s: %v\n%s", err, bench.Tail(s.log))
		}
	}
}

const deployDomain = "trench.example.org"

// sessionAddress finds the client addresses of the sessions listed on
// the settings page.
var sessionAddress = regexp.MustCompile(`<td>(\d+\.\d+\.\d+\.\d+)</td>`)

// checkHTTPS wants the server to answer its domain over HTTPS on the
// address standing for port 443, with a certificate from the ACME
// server, and to redirect plain HTTP to it.
func (d *deployment) checkHTTPS(s *server) {
	t := d.t
	t.Helper()
	_, port, _ := net.SplitHostPort(d.httpsAddr)
	base := "https://" + deployDomain + ":" + port
	res, body := s.get(t, clientTo(d.httpsAddr, d.acme.Issuer), func() *http.Request {
		r, _ := http.NewRequest(http.MethodGet, base+"/signup", nil)
		return r
	})
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `name="password"`) {
		t.Fatalf("GET %s/signup: %s\n%.500s", base, res.Status, body)
	}
	if leaf := res.TLS.PeerCertificates[0]; leaf.VerifyHostname(deployDomain) != nil {
		t.Errorf("certificate for %v", leaf.DNSNames)
	}
	res, _ = s.get(t, clientTo(d.httpAddr, nil), func() *http.Request {
		r, _ := http.NewRequest(http.MethodGet, "http://"+deployDomain+"/archive", nil)
		return r
	})
	if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != base+"/archive" {
		t.Errorf("plain HTTP: %s to %q, want a redirect to %s/archive", res.Status, res.Header.Get("Location"), base)
	}
}

// systemdUnit is a parsed unit file: its keys by section, in order.
type systemdUnit map[string][][2]string

func parseUnit(t *testing.T, text string) systemdUnit {
	t.Helper()
	u := systemdUnit{}
	section := ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("unit line %d: %q is neither a [Section] nor Key=value", i+1, line)
			}
			u[section] = append(u[section], [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
		}
	}
	return u
}

// get returns the last value of key in section ("" if absent).
func (u systemdUnit) get(section, key string) string {
	v := ""
	for _, kv := range u[section] {
		if kv[0] == key {
			v = kv[1]
		}
	}
	return v
}

// all returns every value of key in section.
func (u systemdUnit) all(section, key string) []string {
	var out []string
	for _, kv := range u[section] {
		if kv[0] == key {
			out = append(out, kv[1])
		}
	}
	return out
}

// startUnit starts the unit's ExecStart as systemd would: in /, with the
// unit's Environment= and EnvironmentFile= variables and
// STATE_DIRECTORY, after making its StateDirectory= with its mode. (The
// user, the capabilities and the sandbox are systemd's part.)
func (d *deployment) startUnit(u systemdUnit, log string) *server {
	t := d.t
	t.Helper()
	state := filepath.Join(d.root, "var/lib", u.get("Service", "StateDirectory"))
	mode := os.FileMode(0o755)
	if m := u.get("Service", "StateDirectoryMode"); m != "" {
		var n uint32
		if _, err := fmt.Sscanf(m, "%o", &n); err != nil {
			t.Fatalf("StateDirectoryMode=%s: %v", m, err)
		}
		mode = os.FileMode(n)
	}
	if err := os.MkdirAll(state, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(state, mode); err != nil {
		t.Fatal(err)
	}
	env := []string{"STATE_DIRECTORY=" + state}
	for _, e := range u.all("Service", "Environment") {
		for _, kv := range strings.Fields(e) {
			env = append(env, strings.Trim(kv, `"`))
		}
	}
	for _, f := range u.all("Service", "EnvironmentFile") {
		b, err := os.ReadFile(d.paths.Replace(strings.TrimPrefix(f, "-")))
		if err != nil {
			if strings.HasPrefix(f, "-") {
				continue
			}
			t.Fatalf("EnvironmentFile=%s: %v", f, err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				env = append(env, line)
			}
		}
	}
	exe := u.get("Service", "ExecStart")
	if strings.ContainsAny(exe, `"'$%\`) {
		t.Fatalf("ExecStart=%s: quoting, variables and specifiers are not followed here", exe)
	}
	return d.start("/", strings.Fields(d.paths.Replace(exe)), env, log)
}

// buildNewerRelease builds the binary at bin as the next release with a
// newer database schema would be: one more (empty) migration, given to go
// build as an overlay (written beside bin), so the source tree is not
// touched.
func buildNewerRelease(bin string) error {
	migrations, err := filepath.Abs(filepath.Join("..", "..", "db", "migrations"))
	if err != nil {
		return err
	}
	dir := filepath.Dir(bin)
	sql := filepath.Join(dir, "next.sql")
	if err := os.WriteFile(sql, []byte("-- +goose Up\nSELECT 1;\n-- +goose Down\nSELECT 1;\n"), 0o644); err != nil {
		return err
	}
	name := fmt.Sprintf("%03d_next_release.sql", db.SchemaVersion()+1)
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(migrations, name): sql}})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "github.com/trench-games/trench/cmd/trench")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build of the newer release: %v\n%s", err, out)
	}
	return nil
}

// signUpFrom signs a player up through a reverse proxy that adds the
// address from to X-Forwarded-For, and returns the settings page the
// player then sees. The cookies are Secure, which a cookie jar would not
// send over the proxy's plain-HTTP leg: they are carried by hand.
func signUpFrom(t *testing.T, s *server, base, from, name string) string {
	t.Helper()
	hc := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	cookies := map[string]string{}
	do := func(method, path string, form url.Values) (*http.Response, string) {
		return s.get(t, hc, func() *http.Request {
			var body io.Reader
			if form != nil {
				body = strings.NewReader(form.Encode())
			}
			r, _ := http.NewRequest(method, base+path, body)
			if form != nil {
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			r.Header.Set("X-Forwarded-For", from)
			r.Header.Set("X-Forwarded-Proto", "https")
			for k, v := range cookies {
				r.AddCookie(&http.Cookie{Name: k, Value: v})
			}
			return r
		})
	}
	keep := func(res *http.Response) {
		for _, c := range res.Cookies() {
			if !c.Secure {
				t.Errorf("cookie %s is not Secure behind the proxy", c.Name)
			}
			cookies[c.Name] = c.Value
		}
	}
	res, body := do(http.MethodGet, "/signup", nil)
	keep(res)
	page, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	csrf := page.Find(`input[name="_csrf"]`).AttrOr("value", "")
	res, body = do(http.MethodPost, "/signup", url.Values{"_csrf": {csrf}, "next": {""}, "name": {name}, "password": {"deploy-password"}})
	keep(res)
	if res.StatusCode != http.StatusSeeOther && res.StatusCode != http.StatusFound && res.StatusCode != http.StatusOK {
		t.Fatalf("sign up: %s\n%.500s", res.Status, body)
	}
	res, body = do(http.MethodGet, "/settings", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("settings after signing up: %s\n%.500s", res.Status, body)
	}
	return body
}

// TestDeployingSection follows the README's "Deploying" section command
// by command on a temporary root: the checksum check and install of a
// download, the server on its domain, the systemd unit (checked, and its
// ExecStart started as systemd would), the reverse-proxy alternative, an
// upgrade to a release with a newer schema, and trench doctor. Commands
// marked "# needs …" (root and systemd) are skipped, each logged.
func TestDeployingSection(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary twice and runs servers: not with -short")
	}
	for _, tool := range []string{"sh", "sha256sum", "install", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH: the section's commands are for Linux", tool)
		}
	}
	blocks := readDeploying(t)
	start := time.Now()
	bin := filepath.Join(t.TempDir(), "trench")
	built := make(chan error, 1)
	go func() { built <- bench.BuildBinary(context.Background(), bin) }()
	newer := filepath.Join(t.TempDir(), "trench")
	buildErr := buildNewerRelease(newer)
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	t.Logf("built this release and a newer one in %v", time.Since(start).Round(100*time.Millisecond))

	d := newDeployment(t)
	logs := t.TempDir()
	state := filepath.Join(d.root, "var/lib/trench")
	dbPath := filepath.Join(state, "trench.db")
	installed := filepath.Join(d.root, "usr/local/bin/trench")
	var unit systemdUnit
	var service *server
	steps := map[string]bool{}
	ran := 0
	skipped := func(c deployCommand) bool {
		if c.Skip != "" {
			t.Logf("not run (%s): %s", c.Skip, c.Line)
		}
		return c.Skip != ""
	}
	// runAll runs the block's commands in dir, each wanted to succeed.
	runAll := func(b deployBlock, dir string) {
		for _, c := range b.commands() {
			if skipped(c) {
				continue
			}
			out, err := d.run(dir, c.Line)
			if err != nil {
				t.Fatalf("%s\n%s: %v\n%s", b.Step, c.Line, err, out)
			}
			t.Logf("ran: %s", c.Line)
			ran++
		}
	}

	for _, b := range blocks {
		steps[b.Step] = true
		switch {
		case b.Step == "1. Download and check." && b.Lang == "sh":
			// A corrupted download fails the check and is not installed.
			cmds := b.commands()
			if !strings.HasPrefix(cmds[0].Line, "sha256sum --check") {
				t.Fatalf("step 1 starts with %q, want the checksum check", cmds[0].Line)
			}
			bad := d.download(bin, true)
			if out, err := d.run(bad, cmds[0].Line); err == nil || !strings.Contains(out, "FAILED") {
				t.Fatalf("%s on a corrupted download: %v\n%s", cmds[0].Line, err, out)
			}
			runAll(b, d.download(bin, false))
			if info, err := os.Stat(installed); err != nil || info.Mode().Perm() != 0o755 {
				t.Fatalf("after step 1: %v %v, want /usr/local/bin/trench of mode 755", info, err)
			}
			out, err := d.run(t.TempDir(), "trench version")
			if err != nil || !strings.HasPrefix(out, "trench ") || !strings.Contains(out, "sqlite ") {
				t.Fatalf("trench version from PATH: %v\n%s", err, out)
			}

		case b.Step == "2. Run it." && b.Lang == "sh":
			for _, c := range b.commands() {
				if skipped(c) {
					continue
				}
				if !strings.HasPrefix(c.Line, "trench serve ") {
					out, err := d.run(t.TempDir(), c.Line)
					if err != nil {
						t.Fatalf("%s: %v\n%s", c.Line, err, out)
					}
					ran++
					continue
				}
				s := d.startLine(t.TempDir(), c.Line, filepath.Join(logs, "step2.log"))
				d.checkHTTPS(s)
				s.stop(t)
				ran++
				t.Logf("ran: %s (answered over HTTPS with the ACME certificate, redirected plain HTTP)", c.Line)
			}
			if info, err := os.Stat(state); err != nil || info.Mode().Perm() != 0o700 {
				t.Fatalf("the state directory: %v %v, want mode 0700", info, err)
			}
			if _, err := os.Stat(dbPath); err != nil {
				t.Fatalf("no database after step 2: %v", err)
			}

		case b.Step == "3. Keep it running with systemd." && b.Lang == "ini":
			unit = parseUnit(t, b.Text)
			for _, want := range [][3]string{
				{"Service", "DynamicUser", "yes"},
				{"Service", "StateDirectory", "trench"},
				{"Service", "ProtectSystem", "strict"},
				{"Service", "NoNewPrivileges", "yes"},
				{"Service", "AmbientCapabilities", "CAP_NET_BIND_SERVICE"},
				{"Install", "WantedBy", "multi-user.target"},
			} {
				if got := unit.get(want[0], want[1]); got != want[2] {
					t.Errorf("unit: [%s] %s=%q, want %q", want[0], want[1], got, want[2])
				}
			}
			exe := strings.Fields(unit.get("Service", "ExecStart"))
			if len(exe) < 2 || exe[0] != "/usr/local/bin/trench" || exe[1] != "serve" ||
				!strings.Contains(unit.get("Service", "ExecStart"), "--db /var/lib/trench/") {
				t.Errorf("unit: ExecStart=%s, want /usr/local/bin/trench serve with its database in the StateDirectory", unit.get("Service", "ExecStart"))
			}
			path := filepath.Join(d.root, "etc/systemd/system/trench.service")
			if err := os.WriteFile(path, []byte(d.paths.Replace(b.Text)), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := exec.LookPath("systemd-analyze"); err == nil {
				out, err := exec.Command("systemd-analyze", "verify", path).CombinedOutput()
				if err != nil || strings.Contains(string(out), "trench.service") {
					t.Errorf("systemd-analyze verify: %v\n%s", err, out)
				}
				t.Logf("systemd-analyze verify: the unit is clean")
			} else {
				t.Logf("no systemd-analyze: the unit's keys were checked by reading it")
			}

		case b.Step == "3. Keep it running with systemd." && b.Lang == "sh":
			// systemctl enable --now: the service as systemd starts it.
			runAll(b, t.TempDir())
			if unit == nil {
				t.Fatal("the systemctl commands come before the unit")
			}
			s := d.startUnit(unit, filepath.Join(logs, "service.log"))
			d.checkHTTPS(s)
			t.Logf("started ExecStart as systemd would: answered over HTTPS on loopback")
			service = s

		case b.Step == "Behind an existing reverse proxy." && b.Lang == "sh":
			if service != nil {
				service.stop(t)
				service = nil
			}
			cmds := b.commands()
			if len(cmds) != 1 || !strings.HasPrefix(cmds[0].Line, "trench serve ") {
				t.Fatalf("the reverse-proxy block: %v, want one trench serve", cmds)
			}
			if !strings.Contains(cmds[0].Line, "--addr 127.0.0.1:8080") || !strings.Contains(cmds[0].Line, "--trusted-proxy 127.0.0.1") {
				t.Fatalf("%s: want --addr 127.0.0.1:8080 (the proxies' upstream) and --trusted-proxy 127.0.0.1", cmds[0].Line)
			}
			s := d.startLine(t.TempDir(), cmds[0].Line, filepath.Join(logs, "proxy.log"))
			page := signUpFrom(t, s, "http://"+d.upstream, "203.0.113.7", "proxied")
			var shown []string
			for _, m := range sessionAddress.FindAllStringSubmatch(page, -1) {
				shown = append(shown, m[1])
			}
			if len(shown) != 1 || shown[0] != "203.0.113.7" {
				t.Errorf("behind the proxy, the settings page shows the session from %v, want the X-Forwarded-For address 203.0.113.7", shown)
			}
			s.stop(t)
			ran++
			t.Logf("ran: %s (the session's address: %v)", cmds[0].Line, shown)

		case b.Step == "Behind an existing reverse proxy." && b.Lang == "":
			if !strings.Contains(b.Text, "reverse_proxy 127.0.0.1:8080") || !strings.Contains(b.Text, deployDomain+" {") {
				t.Errorf("the Caddy example does not send %s to 127.0.0.1:8080:\n%s", deployDomain, b.Text)
			}

		case b.Step == "Behind an existing reverse proxy." && b.Lang == "nginx":
			for _, want := range []string{"proxy_pass http://127.0.0.1:8080;", "server_name " + deployDomain + ";",
				"proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;", "proxy_set_header Host $host;"} {
				if !strings.Contains(b.Text, want) {
					t.Errorf("the nginx example lacks %q:\n%s", want, b.Text)
				}
			}

		case b.Step == "Upgrading." && b.Lang == "sh":
			// The service runs the old release while the new one is
			// checked and installed; then systemctl restart.
			if unit == nil {
				t.Fatal("upgrading before the unit")
			}
			old := d.startUnit(unit, filepath.Join(logs, "service.log"))
			d.checkHTTPS(old)
			runAll(b, d.download(newer, false))
			old.stop(t)
			if backups, _ := db.UpgradeBackups(dbPath); len(backups) != 0 {
				t.Fatalf("upgrade backups before the upgrade: %v", backups)
			}
			service = d.startUnit(unit, filepath.Join(logs, "service.log"))
			d.checkHTTPS(service)
			backups, err := db.UpgradeBackups(dbPath)
			want := fmt.Sprintf("-v%d", db.SchemaVersion())
			if err != nil || len(backups) != 1 || !strings.HasSuffix(backups[0], want) {
				t.Fatalf("after the upgrade: backups %v (%v), want one ending in %s", backups, err, want)
			}
			if log, _ := os.ReadFile(filepath.Join(logs, "service.log")); !strings.Contains(string(log), backups[0]) {
				t.Errorf("the log does not name the upgrade backup %s:\n%s", backups[0], bench.Tail(filepath.Join(logs, "service.log")))
			}
			t.Logf("restarted on the newer release: %s", filepath.Base(backups[0]))

		case b.Step == "Checking." && b.Lang == "sh":
			for _, c := range b.commands() {
				if skipped(c) {
					continue
				}
				out, err := d.run(t.TempDir(), c.Line)
				if err != nil {
					t.Fatalf("%s: %v\n%s", c.Line, err, out)
				}
				// The columns' widths aside: each check's line as its words.
				spaces := regexp.MustCompile(` +`)
				for _, want := range []string{fmt.Sprintf("ok schema schema version %d,", db.SchemaVersion()+1),
					"ok certificate certificate for " + deployDomain, "ok files", "ok integrity"} {
					if !strings.Contains(spaces.ReplaceAllString(out, " "), want) {
						t.Errorf("%s: no line %q:\n%s", c.Line, want, out)
					}
				}
				ran++
				t.Logf("ran: %s\n%s", c.Line, out)
			}
			if service != nil {
				service.stop(t)
				service = nil
			}

		default:
			t.Errorf("a %q block under %q is not followed here:\n%s", b.Lang, b.Step, b.Text)
		}
	}
	for _, want := range []string{"1. Download and check.", "2. Run it.", "3. Keep it running with systemd.",
		"Behind an existing reverse proxy.", "Upgrading.", "Checking."} {
		if !steps[want] {
			t.Errorf("the section has no block under %q", want)
		}
	}
	t.Logf("%d commands run, the whole section in %v", ran, time.Since(start).Round(100*time.Millisecond))
}
