package jmx

import (
	"fmt"
	"html"
	"reflect"
	"strings"

	"github.com/vesload/vesload/profiles"
)

// Builders of small JMeter plans for the tests, in the shape JMeter 5
// writes them.

func plan(serial bool, udv map[string]string, children ...string) string {
	var args strings.Builder
	for k, v := range udv {
		fmt.Fprintf(&args, `<elementProp name="%s" elementType="Argument"><stringProp name="Argument.name">%s</stringProp><stringProp name="Argument.value">%s</stringProp></elementProp>`,
			k, k, html.EscapeString(v))
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.3">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="synthetic" enabled="true">
      <stringProp name="TestPlan.comments">made in a test</stringProp>
      <boolProp name="TestPlan.serialize_threadgroups">` + fmt.Sprint(serial) + `</boolProp>
      <elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments" testname="User Defined Variables" enabled="true">
        <collectionProp name="Arguments.arguments">` + args.String() + `</collectionProp>
      </elementProp>
    </TestPlan>
    <hashTree>
` + strings.Join(children, "\n") + `
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`
}

type tg struct {
	threads, ramp, loops string
	scheduler            bool
	duration, delay      string
}

func threadGroup(g tg, children ...string) string {
	return fmt.Sprintf(`<ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Group %s" enabled="true">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller" enabled="true">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">%s</stringProp>
  </elementProp>
  <stringProp name="ThreadGroup.num_threads">%s</stringProp>
  <stringProp name="ThreadGroup.ramp_time">%s</stringProp>
  <boolProp name="ThreadGroup.scheduler">%v</boolProp>
  <stringProp name="ThreadGroup.duration">%s</stringProp>
  <stringProp name="ThreadGroup.delay">%s</stringProp>
</ThreadGroup>
<hashTree>
%s
</hashTree>`, g.threads, g.loops, g.threads, g.ramp, g.scheduler, g.duration, g.delay, strings.Join(children, "\n"))
}

type sampler struct {
	name, method, protocol, domain, port, path, body string
}

func httpSampler(s sampler, children ...string) string {
	if s.method == "" {
		s.method = "POST"
	}
	return fmt.Sprintf(`<HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="%s" enabled="true">
  <boolProp name="HTTPSampler.postBodyRaw">true</boolProp>
  <elementProp name="HTTPsampler.Arguments" elementType="Arguments">
    <collectionProp name="Arguments.arguments">
      <elementProp name="" elementType="HTTPArgument">
        <boolProp name="HTTPArgument.always_encode">false</boolProp>
        <stringProp name="Argument.value">%s</stringProp>
        <stringProp name="Argument.metadata">=</stringProp>
      </elementProp>
    </collectionProp>
  </elementProp>
  <stringProp name="HTTPSampler.domain">%s</stringProp>
  <stringProp name="HTTPSampler.port">%s</stringProp>
  <stringProp name="HTTPSampler.protocol">%s</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.method">%s</stringProp>
  <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
  <stringProp name="HTTPSampler.connect_timeout"></stringProp>
  <stringProp name="HTTPSampler.response_timeout">5000</stringProp>
</HTTPSamplerProxy>
<hashTree>
%s
</hashTree>`, s.name, html.EscapeString(s.body), s.domain, s.port, s.protocol, s.path, s.method, strings.Join(children, "\n"))
}

// vesSampler is a fault event POST to a local collector.
func vesSampler(name string, children ...string) string {
	return httpSampler(sampler{name: name, protocol: "http", domain: "collector", port: "8080", path: "/eventListener/v7",
		body: `{"event": {"commonEventHeader": {"domain": "fault", "startEpochMicrosec": ${__time()}}}}`}, children...)
}

func headerManager(headers ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, `<elementProp name="" elementType="Header"><stringProp name="Header.name">%s</stringProp><stringProp name="Header.value">%s</stringProp></elementProp>`,
			headers[i], html.EscapeString(headers[i+1]))
	}
	return `<HeaderManager guiclass="HeaderPanel" testclass="HeaderManager" testname="HTTP Header Manager" enabled="true">
  <collectionProp name="HeaderManager.headers">` + b.String() + `</collectionProp>
</HeaderManager>
<hashTree/>`
}

func authManager(url, user, password string) string {
	return fmt.Sprintf(`<AuthManager guiclass="AuthPanel" testclass="AuthManager" testname="HTTP Authorization Manager" enabled="true">
  <collectionProp name="AuthManager.auth_list">
    <elementProp name="" elementType="Authorization">
      <stringProp name="Authorization.url">%s</stringProp>
      <stringProp name="Authorization.username">%s</stringProp>
      <stringProp name="Authorization.password">%s</stringProp>
    </elementProp>
  </collectionProp>
</AuthManager>
<hashTree/>`, url, user, password)
}

func constantThroughput(perMinute string, calcMode int) string {
	return fmt.Sprintf(`<ConstantThroughputTimer guiclass="TestBeanGUI" testclass="ConstantThroughputTimer" testname="Constant Throughput Timer" enabled="true">
  <intProp name="calcMode">%d</intProp>
  <doubleProp>
    <name>throughput</name>
    <value>%s</value>
    <savedValue>0.0</savedValue>
  </doubleProp>
</ConstantThroughputTimer>
<hashTree/>`, calcMode, perMinute)
}

func preciseThroughput(throughput string, period, duration int) string {
	return fmt.Sprintf(`<PreciseThroughputTimer guiclass="TestBeanGUI" testclass="PreciseThroughputTimer" testname="Precise Throughput Timer" enabled="true">
  <doubleProp>
    <name>allowedThroughputSurplus</name>
    <value>1.0</value>
    <savedValue>0.0</savedValue>
  </doubleProp>
  <intProp name="exactLimit">10000</intProp>
  <doubleProp>
    <name>throughput</name>
    <value>%s</value>
    <savedValue>0.0</savedValue>
  </doubleProp>
  <intProp name="throughputPeriod">%d</intProp>
  <longProp name="duration">%d</longProp>
  <intProp name="batchSize">1</intProp>
  <intProp name="batchThreadDelay">0</intProp>
  <longProp name="randomSeed">0</longProp>
</PreciseThroughputTimer>
<hashTree/>`, throughput, period, duration)
}

// shapingTimer takes rows of start rps, end rps, duration s.
func shapingTimer(rows ...[3]int) string {
	var b strings.Builder
	for i, r := range rows {
		fmt.Fprintf(&b, `<collectionProp name="row%d"><stringProp name="a">%d</stringProp><stringProp name="b">%d</stringProp><stringProp name="c">%d</stringProp></collectionProp>`,
			i, r[0], r[1], r[2])
	}
	return `<kg.apc.jmeter.timers.VariableThroughputTimer guiclass="kg.apc.jmeter.timers.VariableThroughputTimerGui" testclass="kg.apc.jmeter.timers.VariableThroughputTimer" testname="jp@gc - Throughput Shaping Timer" enabled="true">
  <collectionProp name="load_profile">` + b.String() + `</collectionProp>
</kg.apc.jmeter.timers.VariableThroughputTimer>
<hashTree/>`
}

func elementXML(class, name string) string {
	return fmt.Sprintf(`<%s guiclass="x" testclass="%s" testname="%s" enabled="true"/>
<hashTree/>`, class, class, name)
}

func equalProfiles(a, b *profiles.Profile) bool { return reflect.DeepEqual(a, b) }
