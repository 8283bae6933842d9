//go:build unix

package osfile

import "syscall"

const oNonblock = syscall.O_NONBLOCK
