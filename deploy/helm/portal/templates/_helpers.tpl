{{/* The name of one component's objects: <release>-<component>. */}}
{{- define "portal.componentName" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "portal.configName" -}}
{{- printf "%s-config" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "portal.selectorLabels" -}}
app.kubernetes.io/name: portal
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "portal.labels" -}}
{{ include "portal.selectorLabels" . }}
app.kubernetes.io/part-of: portal
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{/*
Every component with its settings: the defaults, then the kind's defaults, then its own values.
Each has name, kind (service | gateway | frontend), port, replicas, resources, autoscaling, ...
*/}}
{{- define "portal.components" -}}
{{- $all := list -}}
{{- range $name, $own := .Values.services -}}
{{- $c := mergeOverwrite (deepCopy $.Values.defaults) (deepCopy (default dict $own)) (dict "name" $name "kind" "service") -}}
{{- $all = append $all $c -}}
{{- end -}}
{{- $gw := mergeOverwrite (deepCopy $.Values.defaults) (deepCopy $.Values.gateway) (dict "name" "gateway" "kind" "gateway") -}}
{{- $all = append $all $gw -}}
{{- range $name, $own := .Values.frontends -}}
{{- $c := mergeOverwrite (deepCopy $.Values.defaults) (deepCopy $.Values.frontendDefaults) (deepCopy (default dict $own)) (dict "name" $name "kind" "frontend") -}}
{{- $all = append $all $c -}}
{{- end -}}
{{- toJson $all -}}
{{- end -}}

{{- define "portal.image" -}}
{{- $tag := (.c.image | default dict).tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s/%s%s:%s" .root.Values.image.registry .root.Values.image.prefix .c.name $tag -}}
{{- end -}}

{{/* A required Secret name, refused when blank (the chart never holds the values themselves). */}}
{{- define "portal.secretName" -}}
{{- required (printf "%s: name a Secret that exists in the namespace (docs/deploying.md)" .what) .name -}}
{{- end -}}

{{/* The gateway's STATIC_UPSTREAMS: each front end's folder → its Service. */}}
{{- define "portal.staticUpstreams" -}}
{{- $map := dict -}}
{{- range $name, $own := .Values.frontends -}}
{{- $port := (default dict $own).port | default $.Values.frontendDefaults.port -}}
{{- $_ := set $map $name (printf "http://%s:%v" (include "portal.componentName" (dict "root" $ "name" $name)) $port) -}}
{{- end -}}
{{- toJson $map -}}
{{- end -}}
