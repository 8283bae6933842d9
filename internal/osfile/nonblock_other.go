//go:build !unix

package osfile

const oNonblock = 0
