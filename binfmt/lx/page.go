package lx

import "fmt"

// ReadObject returns n bytes of object obj (1-based) starting at offset off,
// as the loader would place them in memory before applying fixups: legal
// pages zero-padded to the page size, iterated (EXEPACK1) and compressed
// (EXEPACK2) pages expanded, zero-filled and invalid pages as zeros, and
// logical pages past the object's page table entries as zeros.
//
// The range must lie inside the object's virtual size; otherwise the error
// names the object, the range and the size. Data errors are *FormatError
// values with the file offset of the bad page data.
func (f *File) ReadObject(obj int, off uint32, n int) ([]byte, error) {
	o := f.Object(obj)
	if o == nil {
		return nil, fmt.Errorf("lx: object %d does not exist (the module has %d objects)", obj, len(f.Objects))
	}
	if n < 0 {
		return nil, fmt.Errorf("lx: object %d: negative length %d", obj, n)
	}
	if uint64(off)+uint64(n) > uint64(o.VirtualSize) {
		return nil, fmt.Errorf("lx: object %d: range 0x%X..0x%X is outside the object (virtual size 0x%X)",
			obj, off, uint64(off)+uint64(n), o.VirtualSize)
	}
	out := make([]byte, n)
	ps := uint64(f.PageSize)
	pos := uint64(off)
	for done := 0; done < n; {
		idx := pos / ps
		in := pos % ps
		chunk := min(uint64(n-done), ps-in)
		if idx < uint64(len(o.Pages)) {
			page, err := f.pageData(o, int(idx))
			if err != nil {
				return nil, err
			}
			copy(out[done:], page[in:in+chunk])
		} // else: past the page table entries, zero-filled (out is zero)
		done += int(chunk)
		pos += chunk
	}
	return out, nil
}

// PageData returns logical page i (0-based, within object obj) expanded to
// the page size. It is ReadObject at page granularity, without the
// virtual-size check, for inspecting the stored pages.
func (f *File) PageData(obj, i int) ([]byte, error) {
	o := f.Object(obj)
	if o == nil {
		return nil, fmt.Errorf("lx: object %d does not exist (the module has %d objects)", obj, len(f.Objects))
	}
	if i < 0 || i >= len(o.Pages) {
		return nil, fmt.Errorf("lx: object %d has no page %d (it has %d page entries)", obj, i, len(o.Pages))
	}
	return f.pageData(o, i)
}

// pageData reads and expands page i of object o into a fresh page-sized
// buffer.
func (f *File) pageData(o *Object, i int) ([]byte, error) {
	p := o.Pages[i]
	logical := int(o.PageTableIndex) + i // 1-based logical page number, for messages
	buf := make([]byte, f.PageSize)
	switch p.Flags {
	case PageInvalid, PageZeroFill:
		return buf, nil
	case PageRange:
		return nil, errorf(f.lxOff(f.ObjectPageTable)+int64(logical-1)*pageEntrySize,
			"object %d page %d: \"range of pages\" entries are not supported", o.Number, logical)
	case PageLegal, PageIterated, PageCompressed:
	default:
		return nil, errorf(f.lxOff(f.ObjectPageTable)+int64(logical-1)*pageEntrySize+6,
			"object %d page %d: unknown page flags 0x%04X", o.Number, logical, p.Flags)
	}
	start := f.pageFileOffset(p)
	raw, err := f.read(start, int64(p.DataSize), fmt.Sprintf("object %d page %d", o.Number, logical))
	if err != nil {
		return nil, err
	}
	switch p.Flags {
	case PageLegal:
		copy(buf, raw) // DataSize <= PageSize was checked by NewFile
	case PageIterated:
		if _, err := UnpackIterated(buf, raw); err != nil {
			return nil, relocate(err, start, fmt.Sprintf("object %d page %d: EXEPACK1 data", o.Number, logical))
		}
	case PageCompressed:
		if _, err := UnpackCompressed(buf, raw); err != nil {
			return nil, relocate(err, start, fmt.Sprintf("object %d page %d: EXEPACK2 data", o.Number, logical))
		}
	}
	return buf, nil
}

// relocate turns an error from the unpackers (offsets relative to the page
// data) into one with a file offset and context.
func relocate(err error, base int64, context string) error {
	if fe, ok := err.(*FormatError); ok {
		return &FormatError{Off: base + fe.Off, Msg: context + ": " + fe.Msg, Err: fe.Err}
	}
	return fmt.Errorf("lx: %s: %w", context, err)
}

// StoredPage returns page i (0-based, within object obj) as the file stores
// it: its page table entry and its data before any expansion (nil data for
// a page with none in the file).
func (f *File) StoredPage(obj, i int) (PageEntry, []byte, error) {
	o := f.Object(obj)
	if o == nil {
		return PageEntry{}, nil, fmt.Errorf("lx: object %d does not exist (the module has %d objects)", obj, len(f.Objects))
	}
	if i < 0 || i >= len(o.Pages) {
		return PageEntry{}, nil, fmt.Errorf("lx: object %d has no page %d (it has %d page entries)", obj, i, len(o.Pages))
	}
	p := o.Pages[i]
	switch p.Flags {
	case PageLegal, PageIterated, PageCompressed:
	default:
		return p, nil, nil
	}
	raw, err := f.read(f.pageFileOffset(p), int64(p.DataSize), fmt.Sprintf("object %d page %d", obj, int(o.PageTableIndex)+i))
	return p, raw, err
}
