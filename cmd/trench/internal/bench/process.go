package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// BuildBinary builds cmd/trench to bin (the working directory must be in
// the module).
func BuildBinary(ctx context.Context, bin string) error {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", bin, "github.com/trench-games/trench/cmd/trench")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build (run it inside the module, or pass --bin): %v\n%s", err, b)
	}
	return nil
}

// ServerProc is `trench serve` running as a subprocess on 127.0.0.1.
type ServerProc struct {
	URL     string
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
	log     string
}

// StartServerProcess starts `bin serve` on path and a free loopback port,
// with extra flags, and waits until it answers.
func StartServerProcess(ctx context.Context, bin, path, logPath string, extra ...string) (*ServerProc, error) {
	return startServerProcess(ctx, bin, path, logPath, nil, extra...)
}

// startServerProcess is StartServerProcess with env ("NAME=value") added
// to the server's environment, whose TRENCH_ variables are otherwise
// removed (the flags alone configure it).
func startServerProcess(ctx context.Context, bin, path, logPath string, env []string, extra ...string) (*ServerProc, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	// The load generator speaks for many players from loopback, each with
	// an X-Forwarded-For address of its own.
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", path, "--trusted-proxy", "127.0.0.1"}, extra...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TRENCH_") { // the flags alone configure it
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &ServerProc{URL: "http://" + addr, cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	hc := &http.Client{Timeout: time.Second, Transport: &http.Transport{Proxy: nil}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-p.done:
			return nil, fmt.Errorf("the server exited on start (%v):\n%s", p.waitErr, Tail(logPath))
		case <-ctx.Done():
			p.Kill()
			return nil, ctx.Err()
		default:
		}
		if res, err := hc.Get(p.URL + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		if time.Now().After(deadline) {
			p.Kill()
			return nil, fmt.Errorf("the server did not answer in 30 s:\n%s", Tail(logPath))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill sends SIGKILL and waits for the process to be gone.
func (p *ServerProc) Kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop sends SIGTERM and wants a clean exit within 20 s.
func (p *ServerProc) Stop() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		p.Kill()
		return fmt.Errorf("the server did not stop within 20 s of SIGTERM:\n%s", Tail(p.log))
	}
	if p.waitErr != nil {
		return fmt.Errorf("the server exited with %v:\n%s", p.waitErr, Tail(p.log))
	}
	return nil
}

// FreePort returns a TCP port free on 127.0.0.1 a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Tail returns the last lines of the file at path.
func Tail(path string) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// Pid is the server's process id.
func (p *ServerProc) Pid() int { return p.cmd.Process.Pid }
