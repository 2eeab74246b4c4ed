// Package downloadstest makes installer files for tests.
package downloadstest

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// WindowsExecutable returns a minimal but valid 64-bit Windows PE
// executable (1 KiB: headers and one .text section whose code returns at
// once), which debug/pe parses as an executable image.
func WindowsExecutable() []byte {
	const (
		peOffset      = 0x40
		fileAlignment = 0x200
		sectionAlign  = 0x1000
	)
	var b bytes.Buffer
	dos := make([]byte, peOffset)
	copy(dos, "MZ")
	binary.LittleEndian.PutUint32(dos[0x3c:], peOffset) // e_lfanew
	b.Write(dos)
	b.WriteString("PE\x00\x00")
	write := func(v any) {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			panic(err) // fixed-size structs: cannot fail
		}
	}
	write(pe.FileHeader{
		Machine:              pe.IMAGE_FILE_MACHINE_AMD64,
		NumberOfSections:     1,
		SizeOfOptionalHeader: uint16(binary.Size(pe.OptionalHeader64{})),
		Characteristics:      pe.IMAGE_FILE_EXECUTABLE_IMAGE | pe.IMAGE_FILE_LARGE_ADDRESS_AWARE,
	})
	write(pe.OptionalHeader64{
		Magic:                       0x20b, // PE32+
		SizeOfCode:                  fileAlignment,
		AddressOfEntryPoint:         sectionAlign,
		BaseOfCode:                  sectionAlign,
		ImageBase:                   0x140000000,
		SectionAlignment:            sectionAlign,
		FileAlignment:               fileAlignment,
		MajorOperatingSystemVersion: 6,
		MajorSubsystemVersion:       6,
		SizeOfImage:                 2 * sectionAlign,
		SizeOfHeaders:               fileAlignment,
		Subsystem:                   pe.IMAGE_SUBSYSTEM_WINDOWS_CUI,
		SizeOfStackReserve:          0x100000,
		SizeOfStackCommit:           0x1000,
		SizeOfHeapReserve:           0x100000,
		SizeOfHeapCommit:            0x1000,
		NumberOfRvaAndSizes:         16,
	})
	write(pe.SectionHeader32{
		Name:             [8]uint8{'.', 't', 'e', 'x', 't'},
		VirtualSize:      1,
		VirtualAddress:   sectionAlign,
		SizeOfRawData:    fileAlignment,
		PointerToRawData: fileAlignment,
		Characteristics:  pe.IMAGE_SCN_CNT_CODE | pe.IMAGE_SCN_MEM_EXECUTE | pe.IMAGE_SCN_MEM_READ,
	})
	b.Write(make([]byte, fileAlignment-b.Len()))
	code := make([]byte, fileAlignment)
	code[0] = 0xc3 // ret
	b.Write(code)
	return b.Bytes()
}

// WriteInstaller writes content as dir/name and returns its path.
func WriteInstaller(t testing.TB, dir, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
