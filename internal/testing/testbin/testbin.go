// Package testbin runs the helper servers tests need (stripe-mock,
// nats-server): each is installed once per machine by the Go toolchain at a
// pinned version (go install module@version into the user cache) and
// executed directly, so it is the test binary's own child and the kernel
// stops it when the test binary dies (Linux).
package testbin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// installTimeout is generous: the first install downloads and compiles.
const installTimeout = 5 * time.Minute

// Install installs module@version once per machine and returns the path of
// its binary name.
func Install(module, version, name string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "a2e-"+name, version)
	bin := filepath.Join(dir, name)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "install", module+"@"+version)
	cmd.Dir = os.TempDir() // outside any module: module@version ignores go.mod anyway
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s@%s: %v\n%s", module, version, err, out)
	}
	return bin, nil
}

// Start runs bin with args and hands its output (stdout and stderr) to
// ready, which reads until the program announces its address. It returns
// that address and a function that kills the program and waits for it; on
// an error or after timeout the program is killed.
func Start(bin string, args []string, ready func(io.Reader) (string, error), timeout time.Duration) (addr string, stop func(), err error) {
	return StartEnv(bin, args, nil, io.Discard, ready, timeout)
}

// StartEnv is Start with the program's environment (nil: this process's)
// and a writer for what it prints after ready returns.
func StartEnv(bin string, args, env []string, rest io.Writer, ready func(io.Reader) (string, error), timeout time.Duration) (addr string, stop func(), err error) {
	p, err := StartProgram(bin, args, env, rest, ready, timeout)
	if err != nil {
		return "", nil, err
	}
	return p.Addr, p.Kill, nil
}

// Program is a program started by StartProgram.
type Program struct {
	Addr   string // what it announced
	proc   *os.Process
	exited chan struct{}
	err    error // how it exited, once exited is closed
}

// StartProgram is StartEnv returning the program, so a test can also stop
// it with a signal and see how it exits.
func StartProgram(bin string, args, env []string, rest io.Writer, ready func(io.Reader) (string, error), timeout time.Duration) (*Program, error) {
	type started struct {
		addr string
		err  error
	}
	p := &Program{exited: make(chan struct{})}
	announced := make(chan started, 1)
	procs := make(chan *os.Process, 1)
	go func() {
		defer close(p.exited)
		// The parent-death signal follows the thread that started the
		// child, so this goroutine keeps its thread until the child exits.
		runtime.LockOSThread()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.SysProcAttr = childAttr()
		out, err := cmd.StdoutPipe()
		if err == nil {
			cmd.Stderr = cmd.Stdout
			err = cmd.Start()
		}
		if err != nil {
			p.err = err
			announced <- started{err: err}
			return
		}
		procs <- cmd.Process
		addr, err := ready(out)
		announced <- started{addr: addr, err: err}
		_, _ = io.Copy(rest, out)
		p.err = cmd.Wait()
	}()
	select {
	case p.proc = <-procs:
	case <-p.exited:
	}
	select {
	case s := <-announced:
		if s.err != nil {
			p.Kill()
			return nil, s.err
		}
		p.Addr = s.addr
		return p, nil
	case <-time.After(timeout):
		p.Kill()
		return nil, fmt.Errorf("%s did not announce its address within %s", filepath.Base(bin), timeout)
	}
}

// Kill kills the program and waits for it to exit.
func (p *Program) Kill() {
	if p.proc != nil {
		_ = p.proc.Kill()
	}
	<-p.exited
}

// Stop sends sig and waits up to timeout for the program to exit; it returns
// how the program exited (nil: status 0), or an error if it was still
// running, which it then kills.
func (p *Program) Stop(sig os.Signal, timeout time.Duration) error {
	if p.proc != nil {
		_ = p.proc.Signal(sig)
	}
	select {
	case <-p.exited:
		return p.err
	case <-time.After(timeout):
		p.Kill()
		return fmt.Errorf("still running %s after %v; killed", timeout, sig)
	}
}
