//go:build !linux

package testbin

import "syscall"

// childAttr has no parent-death signal outside Linux: there the program may
// outlive the test binary.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
