// Command check validates the portal chart's rendered manifests (`helm template` output) without a
// cluster: every object is decoded strictly into its k8s.io/api type (an unknown or misspelt field,
// or a value of the wrong type, fails), names and labels are checked as the API server would, and
// the portal's own rules are enforced: each component has replicas, probes, an HPA and a PDB, runs
// as a non-root user on a read-only root filesystem, takes secrets only from Secrets, and every peer
// URL names a rendered Service on one of its ports.
//
// Usage: check -components auth,content,...,gateway,shell,... rendered.yaml [more.yaml ...]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// The kinds the chart may render, each with the type it must decode into.
var kinds = map[string]func() any{
	"apps/v1/Deployment":                     func() any { return &appsv1.Deployment{} },
	"v1/Service":                             func() any { return &corev1.Service{} },
	"v1/ConfigMap":                           func() any { return &corev1.ConfigMap{} },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"policy/v1/PodDisruptionBudget":          func() any { return &policyv1.PodDisruptionBudget{} },
	"networking.k8s.io/v1/Ingress":           func() any { return &networkingv1.Ingress{} },
}

// Environment variables whose value is a secret: they must come from a Secret, never a literal.
var secretEnv = regexp.MustCompile(`SECRET|TOKEN|PASSWORD|API_KEY|^MONGO_URL$|^REDIS_URL$`)

type rendered struct {
	deployments []*appsv1.Deployment
	services    []*corev1.Service
	configMaps  map[string]*corev1.ConfigMap
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	pdbs        []*policyv1.PodDisruptionBudget
	ingresses   []*networkingv1.Ingress
	count       map[string]int
}

type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func main() {
	components := flag.String("components", "", "comma-separated components that must each be deployed")
	flag.Parse()
	if flag.NArg() == 0 || *components == "" {
		fmt.Fprintln(os.Stderr, "usage: check -components a,b,c rendered.yaml [more.yaml ...]")
		os.Exit(2)
	}
	failed := false
	for _, file := range flag.Args() {
		raw, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		r, errs := decode(raw)
		if len(errs) == 0 {
			errs = check(r, strings.Split(*components, ","))
		}
		if len(errs) > 0 {
			failed = true
			fmt.Printf("%s: %d problem(s)\n", file, len(errs))
			for _, e := range errs {
				fmt.Printf("  - %s\n", e)
			}
			continue
		}
		fmt.Printf("%s: %s decoded strictly into k8s.io/api types; %d components with replicas, probes, HPA and PDB\n",
			file, summary(r.count), len(r.deployments))
	}
	if failed {
		os.Exit(1)
	}
}

func summary(count map[string]int) string {
	names := make([]string, 0, len(count))
	total := 0
	for kind, n := range count {
		names = append(names, fmt.Sprintf("%d %s", n, kind))
		total += n
	}
	sort.Strings(names)
	return fmt.Sprintf("%d objects (%s)", total, strings.Join(names, ", "))
}

var separator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// decode splits a multi-document stream and decodes each object strictly into its type.
func decode(raw []byte) (*rendered, problems) {
	r := &rendered{configMaps: map[string]*corev1.ConfigMap{}, count: map[string]int{}}
	var errs problems
	for i, doc := range separator.Split(string(raw), -1) {
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			errs.add("document %d: not YAML: %v", i, err)
			continue
		}
		var meta metav1.TypeMeta
		if err := json.Unmarshal(js, &meta); err != nil {
			errs.add("document %d: %v", i, err)
			continue
		}
		key := meta.APIVersion + "/" + meta.Kind
		factory, ok := kinds[key]
		if !ok {
			errs.add("document %d: unexpected kind %q", i, key)
			continue
		}
		obj := factory()
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.DisallowUnknownFields()
		if err := dec.Decode(obj); err != nil {
			errs.add("%s (document %d): %v", key, i, err)
			continue
		}
		r.count[meta.Kind]++
		switch o := obj.(type) {
		case *appsv1.Deployment:
			r.deployments = append(r.deployments, o)
		case *corev1.Service:
			r.services = append(r.services, o)
		case *corev1.ConfigMap:
			r.configMaps[o.Name] = o
		case *autoscalingv2.HorizontalPodAutoscaler:
			r.hpas = append(r.hpas, o)
		case *policyv1.PodDisruptionBudget:
			r.pdbs = append(r.pdbs, o)
		case *networkingv1.Ingress:
			r.ingresses = append(r.ingresses, o)
		}
	}
	return r, errs
}

func stripComments(doc string) string {
	var kept []string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// checkMeta applies the API server's rules for names and labels.
func checkMeta(errs *problems, kind string, m metav1.ObjectMeta, dns1035 bool) {
	nameErrs := validation.IsDNS1123Subdomain(m.Name)
	if dns1035 {
		nameErrs = validation.IsDNS1035Label(m.Name)
	}
	for _, e := range nameErrs {
		errs.add("%s %q: name: %s", kind, m.Name, e)
	}
	checkLabels(errs, fmt.Sprintf("%s %q", kind, m.Name), m.Labels)
}

func checkLabels(errs *problems, where string, l map[string]string) {
	for k, v := range l {
		for _, e := range validation.IsQualifiedName(k) {
			errs.add("%s: label key %q: %s", where, k, e)
		}
		for _, e := range validation.IsValidLabelValue(v) {
			errs.add("%s: label %q value %q: %s", where, k, v, e)
		}
	}
}

func selects(selector *metav1.LabelSelector, podLabels map[string]string) bool {
	if selector == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(selector)
	return err == nil && !s.Empty() && s.Matches(labels.Set(podLabels))
}

func check(r *rendered, components []string) problems {
	var errs problems
	servicePorts := map[string]map[string]bool{} // Service name → its ports (number and name)
	for _, s := range r.services {
		checkMeta(&errs, "Service", s.ObjectMeta, true)
		ports := map[string]bool{}
		for _, p := range s.Spec.Ports {
			ports[strconv.Itoa(int(p.Port))] = true
			ports[p.Name] = true
		}
		servicePorts[s.Name] = ports
	}
	for _, c := range r.configMaps {
		checkMeta(&errs, "ConfigMap", c.ObjectMeta, false)
		for k, v := range c.Data {
			for _, e := range validation.IsEnvVarName(k) {
				errs.add("ConfigMap %q: key %q: %s", c.Name, k, e)
			}
			if secretEnv.MatchString(k) {
				errs.add("ConfigMap %q: %s is a secret: take it from a Secret", c.Name, k)
			}
			checkPeer(&errs, "ConfigMap "+c.Name, k, v, servicePorts)
		}
	}

	for _, h := range r.hpas {
		checkMeta(&errs, "HorizontalPodAutoscaler", h.ObjectMeta, false)
	}
	for _, p := range r.pdbs {
		checkMeta(&errs, "PodDisruptionBudget", p.ObjectMeta, false)
	}
	byComponent := map[string]*appsv1.Deployment{}
	for _, d := range r.deployments {
		checkMeta(&errs, "Deployment", d.ObjectMeta, false)
		byComponent[d.Labels["app.kubernetes.io/component"]] = d
		checkDeployment(&errs, r, d, servicePorts)
	}
	for _, want := range components {
		d, ok := byComponent[want]
		if !ok {
			errs.add("component %q: no Deployment", want)
			continue
		}
		pod := d.Spec.Template.Labels
		if !hasService(r, pod) {
			errs.add("component %q: no Service selects its pods", want)
		}
		// Replicas: the HPA's minReplicas (at least 2), or the Deployment's own count without one.
		if !hasHPA(&errs, r, d) {
			errs.add("component %q: no HorizontalPodAutoscaler scales its Deployment", want)
			if d.Spec.Replicas == nil {
				errs.add("component %q: no replica count (neither replicas nor an HPA's minReplicas)", want)
			}
		}
		if !hasPDB(&errs, r, pod) {
			errs.add("component %q: no PodDisruptionBudget covers its pods", want)
		}
	}
	if len(r.deployments) != len(components) {
		errs.add("%d Deployments rendered, %d components expected", len(r.deployments), len(components))
	}

	if len(r.ingresses) != 1 {
		errs.add("%d Ingresses rendered: the portal has exactly one URL", len(r.ingresses))
	}
	for _, ing := range r.ingresses {
		checkMeta(&errs, "Ingress", ing.ObjectMeta, false)
		for _, rule := range ing.Spec.Rules {
			for _, e := range validation.IsDNS1123Subdomain(rule.Host) {
				errs.add("Ingress %q: host %q: %s", ing.Name, rule.Host, e)
			}
			if rule.HTTP == nil {
				errs.add("Ingress %q: a rule without paths", ing.Name)
				continue
			}
			for _, p := range rule.HTTP.Paths {
				b := p.Backend.Service
				if b == nil || !servicePorts[b.Name][b.Port.Name+portNumber(b.Port.Number)] {
					errs.add("Ingress %q: path %q does not reach a rendered Service port", ing.Name, p.Path)
				}
			}
		}
	}
	return errs
}

func portNumber(n int32) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(int(n))
}

// checkPeer: a *_URL (or a JSON map of them) names a rendered Service on one of its ports.
func checkPeer(errs *problems, where, key, value string, servicePorts map[string]map[string]bool) {
	if key == "STATIC_UPSTREAMS" {
		var upstreams map[string]string
		if err := json.Unmarshal([]byte(value), &upstreams); err != nil {
			errs.add("%s: STATIC_UPSTREAMS is not a JSON object: %v", where, err)
			return
		}
		for app, u := range upstreams {
			checkPeer(errs, where, "STATIC_UPSTREAMS["+app+"]_URL", u, servicePorts)
		}
		return
	}
	if !strings.HasSuffix(key, "_URL") || value == "" {
		return
	}
	u, err := url.Parse(value)
	if err != nil {
		errs.add("%s: %s: %v", where, key, err)
		return
	}
	if !servicePorts[u.Hostname()][u.Port()] {
		errs.add("%s: %s=%s names no rendered Service port", where, key, value)
	}
}

func checkDeployment(errs *problems, r *rendered, d *appsv1.Deployment, servicePorts map[string]map[string]bool) {
	name := "Deployment " + d.Name
	spec := d.Spec
	if spec.Replicas != nil && *spec.Replicas < 2 {
		errs.add("%s: replicas must be at least 2", name)
	}
	if !selects(spec.Selector, spec.Template.Labels) {
		errs.add("%s: its selector does not select its own pods", name)
	}
	checkLabels(errs, name+" pod template", spec.Template.Labels)
	ru := spec.Strategy.RollingUpdate
	if spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || ru == nil || ru.MaxUnavailable == nil ||
		ru.MaxUnavailable.String() != "0" {
		errs.add("%s: a rolling update with maxUnavailable: 0", name)
	}
	pod := spec.Template.Spec
	psc := pod.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		errs.add("%s: the pod must run as a non-root user (runAsNonRoot, runAsUser ≠ 0)", name)
	}
	emptyDirs := map[string]bool{}
	for _, v := range pod.Volumes {
		if v.EmptyDir != nil {
			emptyDirs[v.Name] = true
		}
	}
	if len(pod.Containers) == 0 {
		errs.add("%s: no containers", name)
	}
	for _, c := range pod.Containers {
		where := fmt.Sprintf("%s container %s", name, c.Name)
		for _, e := range validation.IsDNS1123Label(c.Name) {
			errs.add("%s: name: %s", where, e)
		}
		ports := map[string]bool{}
		for _, p := range c.Ports {
			ports[p.Name] = true
			ports[strconv.Itoa(int(p.ContainerPort))] = true
			for _, e := range validation.IsValidPortName(p.Name) {
				errs.add("%s: port name %q: %s", where, p.Name, e)
			}
		}
		checkProbe(errs, where, "readinessProbe", c.ReadinessProbe, "/readyz", ports)
		checkProbe(errs, where, "livenessProbe", c.LivenessProbe, "/healthz", ports)
		for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if _, ok := c.Resources.Requests[res]; !ok {
				errs.add("%s: resources.requests.%s", where, res)
			}
			if _, ok := c.Resources.Limits[res]; !ok {
				errs.add("%s: resources.limits.%s", where, res)
			}
		}
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			errs.add("%s: readOnlyRootFilesystem: true", where)
		}
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			errs.add("%s: allowPrivilegeEscalation: false", where)
		}
		tmp := false
		for _, m := range c.VolumeMounts {
			if m.MountPath == "/tmp" && emptyDirs[m.Name] {
				tmp = true
			}
		}
		if !tmp {
			errs.add("%s: /tmp must be an emptyDir (the root filesystem is read-only)", where)
		}
		seen := map[string]bool{}
		for _, e := range c.Env {
			if seen[e.Name] {
				errs.add("%s: env %s is given twice", where, e.Name)
			}
			seen[e.Name] = true
			for _, msg := range validation.IsEnvVarName(e.Name) {
				errs.add("%s: env %q: %s", where, e.Name, msg)
			}
			if secretEnv.MatchString(e.Name) && (e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
				errs.add("%s: %s is a secret: take it from a Secret (secretKeyRef)", where, e.Name)
			}
			checkPeer(errs, where, e.Name, e.Value, servicePorts)
		}
		for _, from := range c.EnvFrom {
			if from.ConfigMapRef != nil && r.configMaps[from.ConfigMapRef.Name] == nil {
				errs.add("%s: envFrom names ConfigMap %q, which the chart does not render", where, from.ConfigMapRef.Name)
			}
		}
	}
}

func checkProbe(errs *problems, where, which string, p *corev1.Probe, path string, ports map[string]bool) {
	if p == nil || p.HTTPGet == nil {
		errs.add("%s: %s must be an httpGet on %s", where, which, path)
		return
	}
	if p.HTTPGet.Path != path {
		errs.add("%s: %s path %q, want %q", where, which, p.HTTPGet.Path, path)
	}
	if !ports[p.HTTPGet.Port.String()] {
		errs.add("%s: %s port %q is not a port of the container", where, which, p.HTTPGet.Port.String())
	}
}

func hasService(r *rendered, pod map[string]string) bool {
	for _, s := range r.services {
		if len(s.Spec.Selector) > 0 && labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(pod)) {
			return true
		}
	}
	return false
}

func hasHPA(errs *problems, r *rendered, d *appsv1.Deployment) bool {
	for _, h := range r.hpas {
		t := h.Spec.ScaleTargetRef
		if t.Kind != "Deployment" || t.APIVersion != "apps/v1" || t.Name != d.Name {
			continue
		}
		if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
			errs.add("HorizontalPodAutoscaler %q: minReplicas ≥ 2 and maxReplicas ≥ minReplicas", h.Name)
		}
		if len(h.Spec.Metrics) == 0 {
			errs.add("HorizontalPodAutoscaler %q: no metrics", h.Name)
		}
		return true
	}
	return false
}

func hasPDB(errs *problems, r *rendered, pod map[string]string) bool {
	for _, p := range r.pdbs {
		if !selects(p.Spec.Selector, pod) {
			continue
		}
		if (p.Spec.MinAvailable == nil) == (p.Spec.MaxUnavailable == nil) {
			errs.add("PodDisruptionBudget %q: exactly one of minAvailable and maxUnavailable", p.Name)
		}
		return true
	}
	return false
}
