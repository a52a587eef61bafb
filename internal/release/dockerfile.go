package release

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Instruction is one instruction of a Dockerfile, its continuation lines joined.
type Instruction struct {
	// Line is the 1-based line the instruction starts on.
	Line int
	// Stage is the 0-based build stage it belongs to (each FROM starts one; before the first
	// FROM it is -1).
	Stage int
	// Cmd is the instruction's keyword in upper case: RUN, FROM, USER, HEALTHCHECK, ...
	Cmd string
	// Args is the rest of the instruction, continuation escapes and comment lines removed.
	Args string
	// Heredocs are the bodies of the instruction's here-documents, in order, each with its
	// terminator line.
	Heredocs []Heredoc
	// Shell is the shell a shell-form RUN runs under in this stage: /bin/sh -c unless a SHELL
	// instruction changed it.
	Shell []string
}

// Heredoc is one here-document of an instruction (`RUN <<EOF`, `RUN cat <<-'EOF' >f`).
type Heredoc struct {
	// Name is the terminator word, unquoted.
	Name string
	// Body is the lines between the instruction and the terminator, each ending in "\n".
	Body string
	// End is the terminator line as written (leading tabs included for <<-).
	End string
}

// heredocRe finds the here-document openers BuildKit recognizes: <<WORD, <<-WORD, quoted or not.
var heredocRe = regexp.MustCompile(`<<(-?)(["']?)([A-Za-z_][A-Za-z0-9_]*)(["']?)`)

// ParseDockerfile splits a Dockerfile into instructions: it honors the escape parser directive,
// joins continuation lines (dropping comment and blank lines inside them, as BuildKit does) and
// reads here-documents up to their terminators. It checks no instruction's arguments.
func ParseDockerfile(src []byte) ([]Instruction, error) {
	lines, err := splitLines(src)
	if err != nil {
		return nil, err
	}
	escape := escapeDirective(lines)
	var (
		out   []Instruction
		stage = -1
		shell = []string{"/bin/sh", "-c"}
	)
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		start := i
		text := strings.TrimLeft(lines[i], " \t")
		for {
			body, more := cutEscape(text, escape)
			if !more {
				text = body
				break
			}
			// Continue with the next line that is neither blank nor a comment.
			j := i + 1
			for j < len(lines) {
				t := strings.TrimSpace(lines[j])
				if t != "" && !strings.HasPrefix(t, "#") {
					break
				}
				j++
			}
			if j == len(lines) {
				text = body
				i = j - 1
				break
			}
			text = body + lines[j]
			i = j
		}
		cmd, args, _ := strings.Cut(text, " ")
		if tab := strings.IndexByte(cmd, '\t'); tab >= 0 {
			cmd, args = cmd[:tab], cmd[tab+1:]+" "+args
		}
		in := Instruction{Line: start + 1, Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)}
		for _, m := range heredocRe.FindAllStringSubmatch(in.Args, -1) {
			// BuildKit reads here-documents for RUN, COPY and ADD only.
			if m[2] != m[4] || (in.Cmd != "RUN" && in.Cmd != "COPY" && in.Cmd != "ADD") {
				continue
			}
			h, next, err := readHeredoc(lines, i+1, m[3], m[1] == "-")
			if err != nil {
				return nil, fmt.Errorf("read heredoc of line %d: %w", start+1, err)
			}
			in.Heredocs = append(in.Heredocs, h)
			i = next - 1
		}
		switch in.Cmd {
		case "FROM":
			stage++
			shell = []string{"/bin/sh", "-c"}
		case "SHELL":
			var s []string
			if err := json.Unmarshal([]byte(in.Args), &s); err != nil || len(s) == 0 {
				return nil, fmt.Errorf("line %d: SHELL needs a JSON array, not %q", start+1, in.Args)
			}
			shell = s
		}
		in.Stage = stage
		in.Shell = shell
		out = append(out, in)
	}
	return out, nil
}

// splitLines splits src into lines without their line endings.
func splitLines(src []byte) ([]string, error) {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		lines = append(lines, strings.TrimSuffix(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("split lines: %w", err)
	}
	return lines, nil
}

// escapeDirective reads the `# escape=` parser directive at the top of a Dockerfile: '\\' or '`'.
func escapeDirective(lines []string) byte {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "#") {
			break
		}
		k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(t, "#")), "=")
		if !ok {
			break
		}
		if strings.EqualFold(strings.TrimSpace(k), "escape") && strings.TrimSpace(v) == "`" {
			return '`'
		}
	}
	return '\\'
}

// cutEscape removes a trailing escape character (and the blanks after it) from line and
// reports whether it was there, which continues the instruction on the next line.
func cutEscape(line string, escape byte) (string, bool) {
	t := strings.TrimRight(line, " \t")
	if strings.HasSuffix(t, string(escape)) {
		return t[:len(t)-1], true
	}
	return line, false
}

// readHeredoc reads a here-document's lines from lines[from:] up to its terminator and returns
// it with the index of the line after the terminator.
func readHeredoc(lines []string, from int, name string, stripTabs bool) (Heredoc, int, error) {
	var b strings.Builder
	for j := from; j < len(lines); j++ {
		l := lines[j]
		cmp := l
		if stripTabs {
			cmp = strings.TrimLeft(l, "\t")
		}
		if cmp == name {
			return Heredoc{Name: name, Body: b.String(), End: l}, j + 1, nil
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return Heredoc{}, 0, fmt.Errorf("no terminator %q", name)
}

// ShellScript returns the script a RUN instruction hands its shell, with the interpreter that
// parses it (the stage's SHELL, or a here-document's own #! line when the instruction is only
// that here-document), and false for an exec-form RUN, which runs no shell. The script is the
// instruction's command line followed by its here-documents, as a shell reads them.
func (in Instruction) ShellScript() (script string, shell []string, ok bool) {
	if in.Cmd != "RUN" {
		return "", nil, false
	}
	cmd := in.Args
	// Drop RUN's own flags (--mount=..., --network=..., --security=...).
	for strings.HasPrefix(cmd, "--") {
		_, rest, _ := strings.Cut(cmd, " ")
		cmd = strings.TrimLeft(rest, " \t")
	}
	if strings.HasPrefix(cmd, "[") {
		var argv []string
		if json.Unmarshal([]byte(cmd), &argv) == nil {
			return "", nil, false
		}
	}
	shell = in.Shell
	if len(in.Heredocs) == 1 && heredocRe.ReplaceAllString(cmd, "") == "" {
		body := in.Heredocs[0].Body
		if strings.HasPrefix(body, "#!") {
			first, _, _ := strings.Cut(body, "\n")
			shell = strings.Fields(strings.TrimPrefix(first, "#!"))
		}
		return body, shell, true
	}
	var b strings.Builder
	b.WriteString(cmd)
	b.WriteByte('\n')
	for _, h := range in.Heredocs {
		b.WriteString(h.Body)
		b.WriteString(h.End)
		b.WriteByte('\n')
	}
	return b.String(), shell, true
}
