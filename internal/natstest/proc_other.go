//go:build !linux

package natstest

import "syscall"

// childAttr has no parent-death signal outside Linux: there the server may
// outlive the test binary.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
