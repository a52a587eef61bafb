package checkout

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// This file reads the times a question names ("in June", "last month", "on 13 October 2023",
// "three weeks ago") as windows of occurred_at, relative to the question's time (the request's
// as_of, else now). No LLM and no library: the Go date parsers on the module proxy return one
// instant, not the span an expression covers ("in June" is a month, "in 2022" a year), and
// the span is what ranking needs. What it does not read (an anchor that is another event, "two
// weeks before the launch"; future times, "next week") leaves ranking unchanged.

// timeWindow is a half-open span [from, to) of occurred_at that a question names.
type timeWindow struct{ from, to time.Time }

// timeWindows are the spans a question's time expressions name; an item whose occurred_at
// falls in any of them matches.
type timeWindows []timeWindow

// matches reports whether it is memory from a time the question names: it occurred inside a
// window, or its text names a time of at most m.MaxTextWindowDays, read against when it
// occurred, that overlaps one ("I helped at the food drive on December 10th", said on 10
// January, matches "in December").
func (ws timeWindows) matches(m *Mechanism, it *rankedItem) bool {
	if len(ws) == 0 || it.OccurredAt == nil {
		return false
	}
	if ws.contains(it.OccurredAt) {
		return true
	}
	longest := time.Duration(m.MaxTextWindowDays) * 24 * time.Hour
	for _, c := range parseTimeWindows(m, it.Text, *it.OccurredAt) {
		if c.from.IsZero() || c.to.Sub(c.from) > longest {
			continue
		}
		for _, w := range ws {
			if c.from.Before(w.to) && w.from.Before(c.to) {
				return true
			}
		}
	}
	return false
}

// contains reports whether t falls in one of the windows.
func (ws timeWindows) contains(t *time.Time) bool {
	if t == nil {
		return false
	}
	for _, w := range ws {
		if !t.Before(w.from) && t.Before(w.to) {
			return true
		}
	}
	return false
}

var monthNumber = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
	"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
	"december": 12, "dec": 12,
}

var numberWord = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "few": 3,
}

const (
	reMonth   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?`
	reDay     = `(\d{1,2})(?:st|nd|rd|th)?`
	reYear    = `((?:19|20)\d\d)`
	reWeekday = `(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?`
	reNum     = `(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of|few)`
	reUnit    = `(day|week|month|year)s?`
	// A month name alone is a month only after a word that introduces a time: "may", "march"
	// and "august" are words too.
	reMonthLead = `(?:in|on|during|since|of|early|late|mid|until|before|after|from|through|throughout|by)\s+`
)

// Time expressions, tried in this order over the lowercased query; the text a rule matched is
// blanked so later rules do not read it again ("13 October 2023" is not also "October 2023").
var (
	reISODate    = regexp.MustCompile(`\b` + reYear + `-(\d{1,2})-(\d{1,2})\b`)
	reDayMonthY  = regexp.MustCompile(`\b` + reDay + `\s+(?:of\s+)?` + reMonth + `,?\s+` + reYear + `\b`)
	reMonthDayY  = regexp.MustCompile(`\b` + reMonth + `\s+` + reDay + `,?\s+` + reYear + `\b`)
	reMonthYear  = regexp.MustCompile(`\b` + reMonth + `,?\s+(?:of\s+)?` + reYear + `\b`)
	reDayMonth   = regexp.MustCompile(`\b(?:on\s+` + reWeekday + `(?:the\s+)?)` + reDay + `\s+(?:of\s+)?` + reMonth + `\b`)
	reMonthDay   = regexp.MustCompile(`\b(?:on\s+` + reWeekday + `)` + reMonth + `\s+` + reDay + `\b`)
	reLastMonthN = regexp.MustCompile(`\blast\s+` + reMonth + `\b`)
	reThisMonthN = regexp.MustCompile(`\bthis\s+` + reMonth + `\b`)
	reMonthAlone = regexp.MustCompile(`\b` + reMonthLead + reMonth + `\b`)
	reYearAlone  = regexp.MustCompile(`\b(?:in|during|of|throughout|since|from|until|before|after|by)\s+` + reYear + `\b`)
	reAgo        = regexp.MustCompile(`\b` + reNum + `\s+` + reUnit + `\s+ago\b`)
	rePastN      = regexp.MustCompile(`\b(?:past|last|previous)\s+` + reNum + `\s+` + reUnit + `\b`)
	rePastUnit   = regexp.MustCompile(`\b(?:the\s+)?past\s+` + reUnit + `\b`)
	reLastUnit   = regexp.MustCompile(`\b(?:last|previous)\s+(week|weekend|month|year)\b`)
	reThisUnit   = regexp.MustCompile(`\bthis\s+(week|weekend|month|year)\b`)
	// Not "tonight": "a show to watch tonight" is about the evening ahead.
	reDayWord     = regexp.MustCompile(`\b(yesterday|today|last night|this morning|this afternoon)\b`)
	reOpenedStart = regexp.MustCompile(`\b(before|until|by|prior to|after|since)\s+$`)
)

// parseTimeWindows returns the windows the query's time expressions name, relative to now
// (the question's time), in UTC. A window that starts after now is dropped (memory holds
// nothing from then). "before X" and "until X" open the window back to the beginning; "after X"
// runs from X's end to now, "since X" from its start to now. A day or month named without a
// year ("in June") is each of the last mech.MonthYears years'. The expressions and the spans
// they name are the question's grammar, fixed for every mechanism.
func parseTimeWindows(mech *Mechanism, query string, now time.Time) timeWindows {
	now = now.UTC()
	q := []byte(strings.ToLower(query))
	var ws timeWindows
	add := func(loc []int, w timeWindow) {
		// The words just before the expression, or its own first word, may open it ("before
		// May 2023", "since June").
		pre := string(q[max(0, loc[0]-12):loc[0]])
		if lead, _, ok := strings.Cut(string(q[loc[0]:loc[1]]), " "); ok && reOpenedStart.MatchString(lead+" ") {
			pre = lead + " "
		}
		if m := reOpenedStart.FindStringSubmatch(pre); m != nil {
			switch m[1] {
			case "before", "until", "by", "prior to":
				w = timeWindow{time.Time{}, w.from}
			case "after":
				w = timeWindow{w.to, now}
			case "since":
				w = timeWindow{w.from, now}
			}
		}
		if w.from.Before(now) && w.from.Before(w.to) {
			ws = append(ws, w)
		}
	}
	// each runs re over q, calls f with the submatches of every match and blanks the match.
	each := func(re *regexp.Regexp, f func(m []string) []timeWindow) {
		for _, loc := range re.FindAllSubmatchIndex(q, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = string(q[loc[2*i]:loc[2*i+1]])
				}
			}
			got := f(m)
			for _, w := range got {
				add(loc, w)
			}
			if got != nil {
				for i := loc[0]; i < loc[1]; i++ {
					q[i] = ' '
				}
			}
		}
	}
	day := func(y int, mo time.Month, d int) []timeWindow {
		if mo < 1 || mo > 12 || d < 1 || d > 31 {
			return nil
		}
		from := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
		if from.Month() != mo { // 31 February
			return nil
		}
		return []timeWindow{{from, from.AddDate(0, 0, 1)}}
	}
	month := func(y int, mo time.Month) timeWindow {
		from := time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
		return timeWindow{from, from.AddDate(0, 1, 0)}
	}
	// everyYear is the day or month in each of the last mech.MonthYears years up to now.
	everyYear := func(f func(y int) []timeWindow) []timeWindow {
		out := []timeWindow{}
		for y := now.Year(); y > now.Year()-mech.MonthYears; y-- {
			out = append(out, f(y)...)
		}
		return out
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }

	each(reISODate, func(m []string) []timeWindow { return day(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3])) })
	each(reDayMonthY, func(m []string) []timeWindow { return day(atoi(m[3]), monthNumber[m[2]], atoi(m[1])) })
	each(reMonthDayY, func(m []string) []timeWindow { return day(atoi(m[3]), monthNumber[m[1]], atoi(m[2])) })
	each(reMonthYear, func(m []string) []timeWindow { return []timeWindow{month(atoi(m[2]), monthNumber[m[1]])} })
	each(reDayMonth, func(m []string) []timeWindow {
		return everyYear(func(y int) []timeWindow { return day(y, monthNumber[m[2]], atoi(m[1])) })
	})
	each(reMonthDay, func(m []string) []timeWindow {
		return everyYear(func(y int) []timeWindow { return day(y, monthNumber[m[1]], atoi(m[2])) })
	})
	// "last May" is the latest May before the current month; "this May" the current year's.
	each(reLastMonthN, func(m []string) []timeWindow {
		y := now.Year()
		if monthNumber[m[1]] >= now.Month() {
			y--
		}
		return []timeWindow{month(y, monthNumber[m[1]])}
	})
	each(reThisMonthN, func(m []string) []timeWindow { return []timeWindow{month(now.Year(), monthNumber[m[1]])} })
	// "in June": every June of the last mech.MonthYears years (the question may be asked long
	// after).
	each(reMonthAlone, func(m []string) []timeWindow {
		return everyYear(func(y int) []timeWindow { return []timeWindow{month(y, monthNumber[m[1]])} })
	})
	each(reYearAlone, func(m []string) []timeWindow {
		from := time.Date(atoi(m[1]), 1, 1, 0, 0, 0, 0, time.UTC)
		return []timeWindow{{from, from.AddDate(1, 0, 0)}}
	})
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	// back is now moved n units into the past.
	back := func(n int, unit string) time.Time {
		switch unit {
		case "day":
			return today.AddDate(0, 0, -n)
		case "week":
			return today.AddDate(0, 0, -7*n)
		case "month":
			return today.AddDate(0, -n, 0)
		default:
			return today.AddDate(-n, 0, 0)
		}
	}
	count := func(s string) int {
		if n, ok := numberWord[s]; ok {
			return n
		}
		return atoi(s)
	}
	// "three weeks ago": the week around that time (a day either side of a day; half a unit
	// either side of longer units).
	each(reAgo, func(m []string) []timeWindow {
		n, unit := count(m[1]), m[2]
		at := back(n, unit)
		if unit == "day" {
			return []timeWindow{{at.AddDate(0, 0, -1), at.AddDate(0, 0, 2)}}
		}
		half := at.Sub(back(n+1, unit)) / 2
		return []timeWindow{{at.Add(-half), at.Add(half)}}
	})
	each(rePastN, func(m []string) []timeWindow {
		return []timeWindow{{back(count(m[1]), m[2]), now.Add(time.Nanosecond)}}
	})
	each(rePastUnit, func(m []string) []timeWindow { return []timeWindow{{back(1, m[1]), now.Add(time.Nanosecond)}} })
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	each(reLastUnit, func(m []string) []timeWindow {
		switch m[1] {
		case "week":
			return []timeWindow{{monday.AddDate(0, 0, -7), monday}}
		case "weekend":
			sat := monday.AddDate(0, 0, -2)
			return []timeWindow{{sat, monday}}
		case "month":
			first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
			return []timeWindow{{first.AddDate(0, -1, 0), first}}
		default:
			first := time.Date(now.Year()-1, 1, 1, 0, 0, 0, 0, time.UTC)
			return []timeWindow{{first, first.AddDate(1, 0, 0)}}
		}
	})
	each(reThisUnit, func(m []string) []timeWindow {
		end := now.Add(time.Nanosecond)
		switch m[1] {
		case "week":
			return []timeWindow{{monday, end}}
		case "weekend":
			return []timeWindow{{monday.AddDate(0, 0, 5), end}}
		case "month":
			return []timeWindow{{time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC), end}}
		default:
			return []timeWindow{{time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC), end}}
		}
	})
	each(reDayWord, func(m []string) []timeWindow {
		if m[1] == "yesterday" || m[1] == "last night" {
			return []timeWindow{{today.AddDate(0, 0, -1), today}}
		}
		return []timeWindow{{today, now.Add(time.Nanosecond)}}
	})
	return ws
}
