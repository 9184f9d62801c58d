package main

import (
	"strings"
	"testing"
)

// A minimal rendering of one component that follows every rule; each case breaks one of them.
const good = `
apiVersion: v1
kind: ConfigMap
metadata: { name: portal-config }
data:
  NODE_ENV: production
  AUTH_URL: http://portal-auth:4001
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: portal-auth
  labels: { app.kubernetes.io/component: auth }
spec:
  replicas: 2
  selector: { matchLabels: { app.kubernetes.io/component: auth } }
  strategy: { type: RollingUpdate, rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }
  template:
    metadata: { labels: { app.kubernetes.io/component: auth } }
    spec:
      securityContext: { runAsNonRoot: true, runAsUser: 1000 }
      containers:
        - name: auth
          image: registry.example.com/portal-auth:1
          ports: [{ name: http, containerPort: 4001 }]
          envFrom: [{ configMapRef: { name: portal-config } }]
          env:
            - name: JWT_SECRET
              valueFrom: { secretKeyRef: { name: portal-secrets, key: JWT_SECRET } }
          readinessProbe: { httpGet: { path: /readyz, port: http } }
          livenessProbe: { httpGet: { path: /healthz, port: http } }
          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { cpu: "1", memory: 256Mi } }
          securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }
          volumeMounts: [{ name: tmp, mountPath: /tmp }]
      volumes: [{ name: tmp, emptyDir: {} }]
---
apiVersion: v1
kind: Service
metadata: { name: portal-auth }
spec:
  selector: { app.kubernetes.io/component: auth }
  ports: [{ name: http, port: 4001, targetPort: http }]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: portal-auth }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: portal-auth }
  minReplicas: 2
  maxReplicas: 4
  metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } } }]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: portal-auth }
spec:
  maxUnavailable: 1
  selector: { matchLabels: { app.kubernetes.io/component: auth } }
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: { name: portal }
spec:
  rules:
    - host: portal.example.com
      http:
        paths:
          - { path: /, pathType: Prefix, backend: { service: { name: portal-auth, port: { name: http } } } }
`

func problemsOf(manifest string) problems {
	r, errs := decode([]byte(manifest))
	if len(errs) > 0 {
		return errs
	}
	return check(r, []string{"auth"})
}

func TestAcceptsAChartThatFollowsEveryRule(t *testing.T) {
	if errs := problemsOf(good); len(errs) > 0 {
		t.Fatalf("unexpected problems: %v", errs)
	}
}

func TestRefuses(t *testing.T) {
	cases := []struct{ name, from, to, want string }{
		{"a misspelt field", "readinessProbe:", "readinesProbe:", `unknown field "readinesProbe"`},
		{"a value of the wrong type", "replicas: 2", "replicas: two", "replicas"},
		{"an unknown kind", "kind: ConfigMap", "kind: ConfigMapp", `unexpected kind "v1/ConfigMapp"`},
		{"a single replica", "replicas: 2", "replicas: 1", "replicas must be at least 2"},
		{"a single replica under its HPA", "minReplicas: 2", "minReplicas: 1", "minReplicas ≥ 2"},
		{"no readiness probe on /readyz", "path: /readyz", "path: /", `readinessProbe path "/"`},
		{"a probe on a port the container lacks", "{ path: /healthz, port: http }", "{ path: /healthz, port: web }", `livenessProbe port "web"`},
		{"a root user", "runAsUser: 1000", "runAsUser: 0", "non-root user"},
		{"a writable root filesystem", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "readOnlyRootFilesystem"},
		{"a rolling update that takes pods away", "maxUnavailable: 0, maxSurge", "maxUnavailable: 1, maxSurge", "maxUnavailable: 0"},
		{"no HPA", "name: portal-auth }\n  minReplicas", "name: portal-other }\n  minReplicas", "no HorizontalPodAutoscaler"},
		{"no PDB", "maxUnavailable: 1\n  selector: { matchLabels: { app.kubernetes.io/component: auth } }", "maxUnavailable: 1\n  selector: { matchLabels: { app.kubernetes.io/component: other } }", "no PodDisruptionBudget"},
		{"a secret written as a value", "valueFrom: { secretKeyRef: { name: portal-secrets, key: JWT_SECRET } }", "value: not-so-secret", "JWT_SECRET is a secret"},
		{"a peer that names no Service", "AUTH_URL: http://portal-auth:4001", "AUTH_URL: http://127.0.0.1:4001", "names no rendered Service port"},
		{"missing resources", "limits: { cpu: \"1\", memory: 256Mi }", "limits: { cpu: \"1\" }", "resources.limits.memory"},
		{"an env variable given twice", "          env:\n", "          env:\n            - { name: LOG_LEVEL, value: info }\n            - { name: LOG_LEVEL, value: debug }\n", "env LOG_LEVEL is given twice"},
		{"an invalid name", "metadata: { name: portal-auth }\nspec:\n  selector", "metadata: { name: Portal_Auth }\nspec:\n  selector", "Service \"Portal_Auth\": name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			broken := strings.Replace(good, c.from, c.to, 1)
			if broken == good {
				t.Fatalf("the case does not change the manifest: %q", c.from)
			}
			errs := problemsOf(broken)
			if !strings.Contains(strings.Join(errs, "\n"), c.want) {
				t.Fatalf("want a problem containing %q, got %v", c.want, errs)
			}
		})
	}
}

func TestLeavesTheReplicaCountToTheHPA(t *testing.T) {
	if errs := problemsOf(strings.Replace(good, "  replicas: 2\n", "", 1)); len(errs) > 0 {
		t.Fatalf("unexpected problems: %v", errs)
	}
	noHPA := strings.Replace(strings.Replace(good, "  replicas: 2\n", "", 1), "name: portal-auth }\n  minReplicas", "name: other }\n  minReplicas", 1)
	if got := strings.Join(problemsOf(noHPA), "\n"); !strings.Contains(got, "no replica count") {
		t.Fatalf("got %v", got)
	}
}

func TestRefusesAComponentWithoutADeployment(t *testing.T) {
	r, errs := decode([]byte(good))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := strings.Join(check(r, []string{"auth", "content"}), "\n")
	if !strings.Contains(got, `component "content": no Deployment`) {
		t.Fatalf("got %v", got)
	}
}
