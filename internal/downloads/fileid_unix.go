//go:build unix

package downloads

import (
	"os"
	"strconv"
	"syscall"
)

// fileID is the device and inode of the file info describes, or "".
func fileID(info os.FileInfo) string {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10)
	}
	return ""
}
