//go:build !unix

package downloads

import "os"

// fileID is "" where the identity of a file is not in its os.FileInfo;
// factsOf then compares identities with os.SameFile after the fact.
func fileID(os.FileInfo) string { return "" }
