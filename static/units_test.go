package static

import (
	"encoding/xml"
	"testing"
)

// TestGeneralStandsOut: the 5-star unit (the General) is not only one
// star more than the 4-star unit, which is hard to count on a small
// board: it has a ring in its stars' colour that no other unit has.
func TestGeneralStandsOut(t *testing.T) {
	data, err := FS.ReadFile("units.svg")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Symbols []struct {
			ID      string `xml:"id,attr"`
			Circles []struct {
				Stroke string `xml:"stroke,attr"`
			} `xml:"circle"`
			Stars []struct {
				Fill string `xml:"fill,attr"`
			} `xml:"polygon"`
		} `xml:"symbol"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, s := range doc.Symbols {
		if len(s.Stars) == 0 {
			continue
		}
		ring := false
		for _, c := range s.Circles {
			ring = ring || c.Stroke == s.Stars[0].Fill
		}
		general := s.ID == "b5" || s.ID == "w5"
		if general {
			found++
		}
		if ring != general {
			t.Errorf("unit %s: a ring in the stars' colour %v, want %v (only the General has one)", s.ID, ring, general)
		}
	}
	if found != 2 {
		t.Errorf("%d General symbols found, want b5 and w5", found)
	}
}
