package testbin

import "syscall"

// childAttr makes the kernel kill the program when the test binary exits.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
