package prf_test

import (
	"testing"

	"github.com/tracekit/tracekit/lower/dialect"
	"github.com/tracekit/tracekit/lower/dialect/dialecttest"
	"github.com/tracekit/tracekit/lower/dialect/gen"
	"github.com/tracekit/tracekit/lower/record/recordtest"
)

// FuzzDump: any input gives valid records and never more records and
// skipped lines than lines.
func FuzzDump(f *testing.F) {
	f.Add([]byte("PRF: Rec Process: 1 Thread: 0x1\nTrace: 1\nEvent: 0x8000 Time: 2000/02/12 13:43:44 1/2/3\nRc: -1\nClientAP: 1.2.3.4 5 - 6\nINT: a OPR: b\n" + gen.DumpHeader + "\n" + gen.DumpLine(0, []byte("AB")) + "\n"))
	f.Add([]byte("PRF: ErrRec Process: 1 Thread: 7(0x8)\nEvent: 8000 Time: 1999:12:31 23:59:59\n 999/999/999\nSendSCD: 1 ReceiveSCD: 2\nLookupName: x\n"))
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		dialecttest.CheckRun(t, v, "prf", dialect.Options{}, data)
	})
}

// FuzzCSV: as FuzzDump, for the CSV form.
func FuzzCSV(f *testing.F) {
	f.Add([]byte(gen.CSVHeader + "\nRec,4002,0x1a2b03,1,cjstartsv,0x8006,2000/02/12,13:43:00,001/184/000,0,192.168.0.5,2311,41,192.168.0.9,977,1,a.B,op,f907,\"..,\"\n"))
	f.Add([]byte("Rec,1,2,3,p,0x1,2000/01/01,00:00:00,0/0/0,-5,,,,,,,,,,\nPRF,Event,X\nRec,0x8000,y\n"))
	v := recordtest.NewValidator(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		dialecttest.CheckRun(t, v, "prfcsv", dialect.Options{}, data)
	})
}
