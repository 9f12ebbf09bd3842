package ciflow

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

// maxWorkflowBytes bounds a workflow file read.
const maxWorkflowBytes = 1 << 20

// Workflow is the part of a workflow file that its jobs' steps read.
type Workflow struct {
	Path string            `yaml:"-"`
	Env  map[string]string `yaml:"env"`
	Jobs map[string]*Job   `yaml:"jobs"`
}

// Job is one job: its condition, matrix, environment and steps.
type Job struct {
	If       string            `yaml:"if"`
	RunsOn   string            `yaml:"runs-on"`
	Env      map[string]string `yaml:"env"`
	Strategy struct {
		Matrix struct {
			Include []map[string]any `yaml:"include"`
		} `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []Step `yaml:"steps"`
}

// Step is one step: a run: script or a uses: action.
type Step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	With  map[string]any    `yaml:"with"`
}

// Title is the step's name as GitHub shows it.
func (s *Step) Title() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Uses != "":
		return "Run " + s.Uses
	}
	line, _, _ := bytes.Cut([]byte(s.Run), []byte("\n"))
	return "Run " + string(line)
}

// ReadWorkflow reads and decodes the workflow file path.
func ReadWorkflow(path string) (*Workflow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxWorkflowBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxWorkflowBytes {
		return nil, fmt.Errorf("reading %s: larger than %d bytes", path, maxWorkflowBytes)
	}
	var w Workflow
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w.Path = path
	if len(w.Jobs) == 0 {
		return nil, fmt.Errorf("%s: no jobs", path)
	}
	return &w, nil
}
