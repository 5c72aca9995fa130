// kafkajs against a Kafka-compatible broker: what kafkajs users do, with exact expectations.
// Usage: node check.js HOST:PORT [check-name ...]
// Prints "PASS name" or "FAIL name: reason" per check; exits 1 if any check failed.
// Every check uses fresh topic and group names, so it can run again against the same broker.
'use strict'

process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1'
const assert = require('assert').strict
const {
  Kafka, logLevel, CompressionTypes, CompressionCodecs, ConfigResourceTypes, Partitioners,
} = require('kafkajs')
const SnappyCodec = require('kafkajs-snappy')
const lz4 = require('lz4js')
const lz4xxh = require('lz4js/xxh32')

CompressionCodecs[CompressionTypes.Snappy] = SnappyCodec
// LZ4: Kafka reads LZ4 frames with independent blocks only (KafkaLZ4BlockInputStream);
// lz4js.compress writes dependent-block frames, so the frame is written here from lz4js' block
// compressor: FLG version 01 + block independence, BD 64 KiB blocks, as the Java client writes.
function lz4Frame(src) {
  const BLOCK = 64 * 1024
  const parts = [Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0])]
  parts[0][6] = (lz4xxh.hash(0, parts[0], 4, 2) >> 8) & 0xff
  const scratch = Buffer.alloc(lz4.compressBound(BLOCK))
  for (let pos = 0; pos < src.length; pos += BLOCK) {
    const block = src.subarray(pos, Math.min(pos + BLOCK, src.length))
    const n = lz4.compressBlock(block, scratch, 0, block.length, new Uint32Array(1 << 16))
    const size = Buffer.alloc(4)
    if (n === 0 || n >= block.length) {
      size.writeUInt32LE((0x80000000 | block.length) >>> 0)
      parts.push(size, Buffer.from(block))
    } else {
      size.writeUInt32LE(n)
      parts.push(size, Buffer.from(scratch.subarray(0, n)))
    }
  }
  parts.push(Buffer.alloc(4))
  return Buffer.concat(parts)
}
CompressionCodecs[CompressionTypes.LZ4] = () => ({
  async compress(encoder) { return lz4Frame(encoder.buffer) },
  async decompress(buffer) { return Buffer.from(lz4.decompress(buffer)) },
})

const bootstrap = process.argv[2]
const only = new Set(process.argv.slice(3))
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
let seq = 0
const uniq = prefix => `kjs-${prefix}-${RUN}-${seq++}`

const logLines = []
const kafka = new Kafka({
  clientId: 'odradek-kafkajs-check',
  brokers: [bootstrap],
  connectionTimeout: 5000,
  requestTimeout: 15000,
  retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 1000 },
  logLevel: logLevel.WARN,
  logCreator: () => ({ namespace, level, log }) => {
    const { message, ...extra } = log
    logLines.push(`[${namespace}] ${level} ${message} ${JSON.stringify(extra)}`.slice(0, 600))
  },
})

// Group timings small enough for a quick run, inside Kafka's default session timeout bounds.
const GROUP = { sessionTimeout: 6000, rebalanceTimeout: 10000, heartbeatInterval: 300, maxWaitTimeInMs: 300 }

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

async function waitFor(cond, what, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await cond()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

function withTimeout(promise, ms, what) {
  let timer
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms) }),
  ]).finally(() => clearTimeout(timer))
}

// Every error type a kafkajs error carries (aggregate errors, retry wrappers, causes).
function errorTypes(e) {
  const out = []
  const walk = x => {
    if (!x) return
    if (x.type) out.push(x.type)
    if (Array.isArray(x.errors)) x.errors.forEach(walk)
    if (Array.isArray(x.partitions)) x.partitions.forEach(p => walk(p.error))
    if (Array.isArray(x.groups)) x.groups.forEach(g => walk(g.error))
    if (x.originalError) walk(x.originalError)
    if (x.cause) walk(x.cause)
  }
  walk(e)
  return out
}

async function expectError(promise, type) {
  let err = null
  try {
    await promise
  } catch (e) {
    err = e
  }
  assert.ok(err, `expected an error ${type}, got success`)
  const types = errorTypes(err)
  assert.ok(types.includes(type), `expected ${type}, got ${err.name}: ${err.message} types=${JSON.stringify(types)}`)
  return err
}

let admin
const opened = []

async function newProducer(opts = {}) {
  const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, ...opts })
  opened.push(p)
  await p.connect()
  return p
}

function newConsumer(opts) {
  const c = kafka.consumer({ ...GROUP, ...opts })
  opened.push(c)
  return c
}

async function createTopic(topic, numPartitions = 1, configs = {}) {
  const created = await admin.createTopics({
    waitForLeaders: true,
    topics: [{
      topic, numPartitions, replicationFactor: 1,
      configEntries: Object.entries(configs).map(([name, value]) => ({ name, value })),
    }],
  })
  assert.equal(created, true, `createTopics(${topic}) returned ${created}`)
  return topic
}

// Run a consumer (own group unless given) until `until(messages)` holds; returns the messages.
async function consume(topic, until, opts = {}) {
  const consumer = newConsumer({ groupId: opts.groupId || uniq('g'), readUncommitted: !!opts.readUncommitted })
  await consumer.connect()
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  const got = []
  let done
  const finished = new Promise(resolve => { done = resolve })
  await consumer.run({
    autoCommit: opts.autoCommit !== undefined ? opts.autoCommit : false,
    eachMessage: async ({ partition, message }) => {
      got.push({ partition, ...message })
      if (until(got)) done()
    },
  })
  try {
    await withTimeout(finished, opts.timeoutMs || 20000, `consuming ${topic} (have ${got.length})`)
  } finally {
    await consumer.disconnect()
  }
  return got
}

const str = b => (b === null || b === undefined ? b : b.toString())
const headersOf = h => Object.fromEntries(Object.entries(h || {}).map(([k, v]) => [k, Array.isArray(v) ? v.map(str) : str(v)]))

// ---------------------------------------------------------------------------------------------
const checks = []
const check = (name, fn) => checks.push({ name, fn })

check('admin.createTopicsAndMetadata', async () => {
  const topic = uniq('create')
  await createTopic(topic, 3, { 'retention.ms': '3600000', 'max.message.bytes': '200000' })
  // Creating it again answers TOPIC_ALREADY_EXISTS, which kafkajs turns into `false`.
  const again = await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] })
  assert.equal(again, false)
  const listed = await admin.listTopics()
  assert.ok(listed.includes(topic), 'listTopics misses the topic')

  const md = await admin.fetchTopicMetadata({ topics: [topic] })
  assert.equal(md.topics.length, 1)
  assert.equal(md.topics[0].name, topic)
  const parts = md.topics[0].partitions.slice().sort((a, b) => a.partitionId - b.partitionId)
  assert.deepEqual(parts.map(p => p.partitionId), [0, 1, 2])
  const cluster = await admin.describeCluster()
  assert.equal(cluster.brokers.length, 1)
  const nodeId = cluster.brokers[0].nodeId
  assert.equal(cluster.controller, nodeId)
  for (const p of parts) {
    assert.equal(p.partitionErrorCode, 0)
    assert.equal(p.leader, nodeId)
    assert.deepEqual(p.replicas, [nodeId])
    assert.deepEqual(p.isr, [nodeId])
  }

  await expectError(admin.createTopics({
    topics: [{ topic: uniq('badcfg'), numPartitions: 1, configEntries: [{ name: 'retention.ms', value: 'abc' }] }],
  }), 'INVALID_CONFIG')
  await expectError(admin.createTopics({
    topics: [{ topic: uniq('badrf'), numPartitions: 1, replicationFactor: 3 }],
  }), 'INVALID_REPLICATION_FACTOR')
  await expectError(admin.createTopics({ topics: [{ topic: 'bad/name', numPartitions: 1 }] }), 'INVALID_TOPIC_EXCEPTION')
})

check('admin.configs', async () => {
  const topic = await createTopic(uniq('configs'), 1, { 'retention.ms': '3600000' })
  const describe = async () => {
    const r = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms', 'cleanup.policy', 'segment.bytes'] }],
    })
    assert.equal(r.resources.length, 1)
    assert.equal(r.resources[0].errorCode, 0)
    assert.equal(r.resources[0].resourceName, topic)
    return Object.fromEntries(r.resources[0].configEntries.map(e => [e.configName, e]))
  }
  let c = await describe()
  assert.deepEqual(Object.keys(c).sort(), ['cleanup.policy', 'retention.ms', 'segment.bytes'])
  assert.equal(c['retention.ms'].configValue, '3600000')
  assert.equal(c['retention.ms'].isDefault, false)
  assert.equal(c['retention.ms'].configSource, 1) // DYNAMIC_TOPIC_CONFIG
  assert.equal(c['retention.ms'].readOnly, false)
  assert.equal(c['cleanup.policy'].configValue, 'delete')
  assert.equal(c['cleanup.policy'].isDefault, true)
  assert.equal(c['cleanup.policy'].configSource, 5) // DEFAULT_CONFIG
  assert.equal(c['segment.bytes'].configValue, '1073741824')

  // validateOnly changes nothing.
  await admin.alterConfigs({
    validateOnly: true,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
  })
  c = await describe()
  assert.equal(c['cleanup.policy'].configValue, 'delete')

  // AlterConfigs (not incremental) replaces the whole set of dynamic configs: retention.ms returns to default.
  await admin.alterConfigs({
    validateOnly: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }],
  })
  // (Kafka's broker applies the controller's records a moment after the answer)
  c = await waitFor(async () => { const d = await describe(); return d['cleanup.policy'].configValue === 'compact' && d }, 'altered config')
  assert.equal(c['cleanup.policy'].configValue, 'compact')
  assert.equal(c['cleanup.policy'].configSource, 1)
  assert.equal(c['retention.ms'].configValue, '604800000')
  assert.equal(c['retention.ms'].isDefault, true)
  assert.equal(c['retention.ms'].configSource, 5)

  await expectError(admin.alterConfigs({
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name: 'retention.ms', value: 'abc' }] }],
  }), 'INVALID_CONFIG')
  await expectError(admin.alterConfigs({
    resources: [{ type: ConfigResourceTypes.TOPIC, name: uniq('nosuch'), configEntries: [{ name: 'retention.ms', value: '1000' }] }],
  }), 'UNKNOWN_TOPIC_OR_PARTITION')

  // Broker configs come from the broker itself.
  const cluster = await admin.describeCluster()
  const b = await admin.describeConfigs({
    resources: [{ type: ConfigResourceTypes.BROKER, name: String(cluster.brokers[0].nodeId), configNames: ['message.max.bytes'] }],
  })
  assert.equal(b.resources[0].errorCode, 0)
  assert.equal(b.resources[0].configEntries.length, 1)
  assert.equal(b.resources[0].configEntries[0].configName, 'message.max.bytes')
  assert.equal(b.resources[0].configEntries[0].configValue, '1048588')
})

check('admin.createPartitions', async () => {
  const topic = await createTopic(uniq('parts'), 1)
  await admin.createPartitions({ topicPartitions: [{ topic, count: 3 }] })
  await waitFor(async () => {
    const md = await admin.fetchTopicMetadata({ topics: [topic] })
    return md.topics[0].partitions.length === 3 && md.topics[0].partitions.every(p => p.leader >= 0)
  }, '3 partitions in metadata')
  // Kafka may list a new partition's leader a moment before that broker leads it (NOT_LEADER).
  const offsets = await waitFor(() => admin.fetchTopicOffsets(topic).catch(e => {
    if (errorTypes(e).some(t => t.startsWith('NOT_LEADER'))) return null
    throw e
  }), 'offsets of the new partitions')
  assert.deepEqual(offsets.map(o => [o.partition, o.offset, o.low, o.high]).sort(),
    [[0, '0', '0', '0'], [1, '0', '0', '0'], [2, '0', '0', '0']])
  // Produce to the new partition.
  const producer = await newProducer()
  const [meta] = await producer.send({ topic, acks: -1, messages: [{ partition: 2, value: 'p2' }] })
  assert.equal(meta.partition, 2)
  assert.equal(meta.baseOffset, '0')
  await expectError(admin.createPartitions({ topicPartitions: [{ topic, count: 2 }] }), 'INVALID_PARTITIONS')
  await expectError(admin.createPartitions({ topicPartitions: [{ topic, count: 3 }] }), 'INVALID_PARTITIONS')
  await expectError(admin.createPartitions({ topicPartitions: [{ topic: uniq('nosuch'), count: 3 }] }),
    'UNKNOWN_TOPIC_OR_PARTITION')
})

check('admin.deleteTopics', async () => {
  const topic = await createTopic(uniq('del'), 2)
  await admin.deleteTopics({ topics: [topic], timeout: 10000 })
  await waitFor(async () => !(await admin.listTopics()).includes(topic), 'topic gone from listTopics')
  await expectError(admin.deleteTopics({ topics: [uniq('nosuch')], timeout: 5000 }), 'UNKNOWN_TOPIC_OR_PARTITION')
})

check('admin.deleteTopicRecords', async () => {
  const topic = await createTopic(uniq('delrec'), 1)
  const producer = await newProducer()
  await producer.send({ topic, acks: -1, messages: Array.from({ length: 10 }, (_, i) => ({ value: `v${i}` })) })
  await admin.fetchTopicMetadata({ topics: [topic] }) // the admin looks up leaders in its metadata cache
  await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '4' }] })
  const [o] = await admin.fetchTopicOffsets(topic)
  assert.deepEqual([o.partition, o.low, o.high, o.offset], [0, '4', '10', '10'])
  const got = await consume(topic, g => g.length >= 6)
  assert.deepEqual(got.map(m => [m.offset, str(m.value)]),
    [4, 5, 6, 7, 8, 9].map(i => [String(i), `v${i}`]))
  // offset -1 means "up to the high watermark".
  await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '-1' }] })
  const [o2] = await admin.fetchTopicOffsets(topic)
  assert.deepEqual([o2.low, o2.high], ['10', '10'])
  // Beyond the high watermark: OFFSET_OUT_OF_RANGE.
  await expectError(admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '11' }] }),
    'OFFSET_OUT_OF_RANGE')
})

check('admin.fetchTopicOffsetsByTimestamp', async () => {
  const topic = await createTopic(uniq('bytime'), 1)
  const producer = await newProducer()
  const base = Date.now() - 60000
  await producer.send({
    topic, acks: -1,
    messages: [0, 1, 2, 3].map(i => ({ value: `t${i}`, timestamp: String(base + i * 1000) })),
  })
  const at = async ts => (await admin.fetchTopicOffsetsByTimestamp(topic, ts))[0].offset
  assert.equal(await at(base - 1), '0')
  assert.equal(await at(base + 1500), '2')
  assert.equal(await at(base + 3000), '3')
  assert.equal(await at(base + 3001), '4') // none later: the log end offset (kafkajs fills in -1 results)
})

check('producer.acks', async () => {
  const topic = await createTopic(uniq('acks'), 1)
  const producer = await newProducer()
  const r1 = await producer.send({ topic, acks: -1, messages: [{ value: 'all-0' }, { value: 'all-1' }] })
  assert.deepEqual(r1.map(r => [r.topicName, r.partition, r.errorCode, r.baseOffset, r.logAppendTime]),
    [[topic, 0, 0, '0', '-1']])
  const r2 = await producer.send({ topic, acks: 1, messages: [{ value: 'one-2' }] })
  assert.deepEqual(r2.map(r => [r.partition, r.errorCode, r.baseOffset]), [[0, 0, '2']])
  const r3 = await producer.send({ topic, acks: 0, messages: [{ value: 'zero-3' }, { value: 'zero-4' }] })
  assert.deepEqual(r3, [])
  const r4 = await producer.send({ topic, acks: 1, messages: [{ value: 'one-5' }] })
  assert.equal(r4[0].baseOffset, '5')
  const got = await consume(topic, g => g.length >= 6)
  assert.deepEqual(got.map(m => [m.offset, str(m.value)]),
    [['0', 'all-0'], ['1', 'all-1'], ['2', 'one-2'], ['3', 'zero-3'], ['4', 'zero-4'], ['5', 'one-5']])
})

check('producer.codecsKeysHeadersTimestamps', async () => {
  const topic = await createTopic(uniq('codecs'), 1)
  const producer = await newProducer()
  const codecs = [['none', CompressionTypes.None], ['gzip', CompressionTypes.GZIP],
    ['snappy', CompressionTypes.Snappy], ['lz4', CompressionTypes.LZ4]]
  const expected = []
  let offset = 0
  const ts0 = 1700000000000
  for (const [name, compression] of codecs) {
    const messages = []
    for (let i = 0; i < 5; i++) {
      const big = name !== 'none' && i === 4 ? 'x'.repeat(20000) : ''
      messages.push({
        key: i === 3 ? null : `${name}-k${i}`,
        value: i === 2 ? null : `${name}-v${i}${big}`,
        timestamp: String(ts0 + offset),
        headers: i === 1 ? {} : { h1: `${name}-${i}`, bin: Buffer.from([0, 255, i]), multi: ['a', 'b'] },
      })
      expected.push([String(offset), i === 3 ? null : `${name}-k${i}`, i === 2 ? null : `${name}-v${i}${big}`,
        String(ts0 + offset), i === 1 ? {} : { h1: `${name}-${i}`, bin: Buffer.from([0, 255, i]).toString(), multi: ['a', 'b'] }])
      offset++
    }
    const [r] = await producer.send({ topic, acks: -1, compression, messages })
    assert.equal(r.baseOffset, String(offset - 5), `${name} baseOffset`)
  }
  const got = await consume(topic, g => g.length >= expected.length)
  assert.deepEqual(got.map(m => [m.offset, str(m.key), str(m.value), m.timestamp, headersOf(m.headers)]), expected)
})

check('producer.logAppendTime', async () => {
  const topic = await createTopic(uniq('lat'), 1, { 'message.timestamp.type': 'LogAppendTime' })
  const producer = await newProducer()
  const before = Date.now()
  const [r] = await producer.send({ topic, acks: 1, messages: [{ value: 'a', timestamp: '1000' }, { value: 'b', timestamp: '2000' }] })
  const after = Date.now()
  const lat = Number(r.logAppendTime)
  assert.ok(lat >= before - 1000 && lat <= after + 1000, `logAppendTime ${r.logAppendTime} not in [${before}, ${after}]`)
  const got = await consume(topic, g => g.length >= 2)
  assert.deepEqual(got.map(m => [m.offset, str(m.value), m.timestamp]), [['0', 'a', r.logAppendTime], ['1', 'b', r.logAppendTime]])
})

check('producer.errors', async () => {
  const topic = await createTopic(uniq('small'), 1, { 'max.message.bytes': '1000' })
  const producer = await newProducer({ retry: { retries: 0 } })
  await expectError(producer.send({ topic, acks: 1, messages: [{ value: 'x'.repeat(5000) }] }), 'MESSAGE_TOO_LARGE')
  const [r] = await producer.send({ topic, acks: 1, messages: [{ value: 'fits' }] })
  assert.equal(r.baseOffset, '0')
})

check('producer.idempotent', async () => {
  const topic = await createTopic(uniq('idem'), 2)
  const producer = await newProducer({ idempotent: true, maxInFlightRequests: 1 })
  const results = []
  for (let i = 0; i < 3; i++) {
    const r = await producer.send({
      topic, acks: -1, compression: i === 1 ? CompressionTypes.GZIP : CompressionTypes.None,
      messages: [{ partition: 0, value: `p0-${2 * i}` }, { partition: 0, value: `p0-${2 * i + 1}` }, { partition: 1, value: `p1-${i}` }],
    })
    results.push(r.map(x => [x.partition, x.baseOffset]).sort())
  }
  assert.deepEqual(results, [[[0, '0'], [1, '0']], [[0, '2'], [1, '1']], [[0, '4'], [1, '2']]])
  const got = await consume(topic, g => g.length >= 9)
  const p0 = got.filter(m => m.partition === 0).map(m => [m.offset, str(m.value)])
  const p1 = got.filter(m => m.partition === 1).map(m => [m.offset, str(m.value)])
  assert.deepEqual(p0, [0, 1, 2, 3, 4, 5].map(i => [String(i), `p0-${i}`]))
  assert.deepEqual(p1, [0, 1, 2].map(i => [String(i), `p1-${i}`]))
  // acks must be -1 for an idempotent producer (kafkajs refuses before sending).
  let err = null
  try { await producer.send({ topic, acks: 1, messages: [{ value: 'x' }] }) } catch (e) { err = e }
  assert.ok(err && err.name === 'KafkaJSNonRetriableError', `idempotent acks=1: ${err}`)
})

check('consumer.groupRebalance', async () => {
  const topic = await createTopic(uniq('rebal'), 4)
  const groupId = uniq('group')
  const assignments = { a: null, b: null }
  const seen = []
  const start = async name => {
    const c = newConsumer({ groupId })
    c.on(c.events.GROUP_JOIN, e => { assignments[name] = (e.payload.memberAssignment[topic] || []).slice().sort() })
    await c.connect()
    await c.subscribe({ topics: [topic], fromBeginning: true })
    await c.run({ autoCommitInterval: 100, eachMessage: async ({ partition, message }) => { seen.push([name, partition, message.offset, str(message.value)]) } })
    return c
  }
  const a = await start('a')
  await waitFor(() => assignments.a && assignments.a.length === 4, 'a owns all 4 partitions')
  const b = await start('b')
  await waitFor(() => assignments.a && assignments.b && assignments.a.length === 2 && assignments.b.length === 2,
    `2+2 partitions (a=${JSON.stringify(assignments.a)} b=${JSON.stringify(assignments.b)})`)
  assert.deepEqual([...assignments.a, ...assignments.b].sort(), [0, 1, 2, 3])

  const running = await admin.describeGroups([groupId])
  const g = running.groups[0]
  assert.deepEqual([g.groupId, g.state, g.protocolType, g.protocol, g.errorCode], [groupId, 'Stable', 'consumer', 'RoundRobinAssigner', 0])
  assert.equal(g.members.length, 2)
  assert.deepEqual(g.members.map(m => m.clientId), ['odradek-kafkajs-check', 'odradek-kafkajs-check'])
  const listed = await admin.listGroups()
  assert.deepEqual(listed.groups.filter(x => x.groupId === groupId), [{ groupId, protocolType: 'consumer' }])

  const producer = await newProducer()
  const messages = []
  for (let p = 0; p < 4; p++) for (let i = 0; i < 5; i++) messages.push({ partition: p, value: `p${p}-${i}` })
  await producer.send({ topic, acks: -1, messages })
  await waitFor(() => seen.length >= 20, `20 messages (have ${seen.length})`)
  await sleep(300)
  assert.equal(seen.length, 20, `each message once: ${JSON.stringify(seen)}`)
  for (const [name, partition] of seen) assert.ok(assignments[name].includes(partition), `${name} got p${partition}`)
  assert.deepEqual(seen.map(s => s[3]).sort(), messages.map(m => m.value).sort())

  await a.disconnect() // commits on stop, then LeaveGroup
  await b.disconnect()
  const offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
  assert.deepEqual(offsets[0].partitions.map(p => [p.partition, p.offset]).sort(), [[0, '5'], [1, '5'], [2, '5'], [3, '5']])
  const after = await admin.describeGroups([groupId])
  assert.deepEqual([after.groups[0].state, after.groups[0].members.length], ['Empty', 0])
})

check('consumer.commitResumeResetOffsets', async () => {
  const topic = await createTopic(uniq('resume'), 1)
  const groupId = uniq('group')
  const producer = await newProducer()
  await producer.send({ topic, acks: -1, messages: Array.from({ length: 10 }, (_, i) => ({ value: `m${i}` })) })

  // Consume 5, commit offset 5 by hand (autoCommit off), leave.
  const c1 = newConsumer({ groupId })
  await c1.connect()
  await c1.subscribe({ topics: [topic], fromBeginning: true })
  let first
  const firstDone = new Promise(resolve => { first = resolve })
  const got1 = []
  await c1.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      got1.push(message.offset)
      if (message.offset === '4') {
        await c1.commitOffsets([{ topic, partition: 0, offset: '5' }])
        first()
      }
    },
  })
  await withTimeout(firstDone, 20000, 'first 5 messages')
  await c1.disconnect()
  let offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
  assert.deepEqual(offsets[0].partitions.map(p => [p.partition, p.offset, p.metadata]), [[0, '5', null]])

  // A new member resumes from the committed offset.
  const got2 = await consume(topic, g => g.length >= 5, { groupId })
  assert.deepEqual(got2.map(m => m.offset), ['5', '6', '7', '8', '9'])

  // resetOffsets (earliest) and setOffsets on an empty group. kafkajs commits earliest as -2
  // (its seek sentinel); a member then resets by auto.offset.reset = earliest.
  await admin.resetOffsets({ groupId, topic, earliest: true })
  offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
  assert.deepEqual(offsets[0].partitions.map(p => p.offset), ['-2'])
  const got3 = await consume(topic, g => g.length >= 10, { groupId })
  assert.deepEqual(got3.map(m => m.offset), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
  await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '7' }] })
  offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
  assert.deepEqual(offsets[0].partitions.map(p => p.offset), ['7'])
  const got4 = await consume(topic, g => g.length >= 3, { groupId })
  assert.deepEqual(got4.map(m => m.offset), ['7', '8', '9'])

  // A group with no commits: -1; deleteGroups, then the group is gone.
  const fresh = await admin.fetchOffsets({ groupId: uniq('nocommit'), topics: [topic] })
  assert.deepEqual(fresh[0].partitions.map(p => [p.partition, p.offset]), [[0, '-1']])
  await admin.deleteGroups([groupId])
  offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
  assert.deepEqual(offsets[0].partitions.map(p => p.offset), ['-1'])
  const d = await admin.describeGroups([groupId])
  assert.deepEqual([d.groups[0].state, d.groups[0].errorCode], ['Dead', 0])
  await expectError(admin.deleteGroups([groupId]), 'GROUP_ID_NOT_FOUND')
})

check('consumer.seekPauseResume', async () => {
  const topic = await createTopic(uniq('seek'), 1)
  const producer = await newProducer()
  await producer.send({ topic, acks: -1, messages: Array.from({ length: 6 }, (_, i) => ({ value: `s${i}` })) })
  const c = newConsumer({ groupId: uniq('group') })
  await c.connect()
  await c.subscribe({ topics: [topic], fromBeginning: true })
  const seen = []
  let sought = false
  await c.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      seen.push(message.offset)
      if (message.offset === '5' && !sought) {
        sought = true
        c.seek({ topic, partition: 0, offset: '2' })
      }
    },
  })
  await waitFor(() => seen.length >= 10, `seek replay (have ${JSON.stringify(seen)})`)
  assert.deepEqual(seen, ['0', '1', '2', '3', '4', '5', '2', '3', '4', '5'])

  c.pause([{ topic }])
  assert.deepEqual(c.paused(), [{ topic, partitions: [0] }])
  await producer.send({ topic, acks: -1, messages: [{ value: 's6' }, { value: 's7' }] })
  await sleep(1000)
  assert.equal(seen.length, 10, `paused consumer got ${JSON.stringify(seen.slice(10))}`)
  c.resume([{ topic }])
  await waitFor(() => seen.length >= 12, 'messages after resume')
  assert.deepEqual(seen.slice(10), ['6', '7'])
  // Seek past the end: reset by auto.offset.reset (earliest, as fromBeginning) -> replay from 0.
  c.seek({ topic, partition: 0, offset: '100' })
  await waitFor(() => seen.length >= 20, `replay after out-of-range seek (have ${JSON.stringify(seen.slice(12))})`)
  assert.deepEqual(seen.slice(12, 20), ['0', '1', '2', '3', '4', '5', '6', '7'])
  await c.disconnect()
})

check('consumer.eachBatch', async () => {
  const topic = await createTopic(uniq('batch'), 2)
  const producer = await newProducer()
  await producer.send({ topic, acks: -1, messages: Array.from({ length: 8 }, (_, i) => ({ partition: i % 2, value: `b${i}` })) })
  await producer.send({ topic, acks: -1, compression: CompressionTypes.GZIP, messages: [{ partition: 0, value: 'b8' }, { partition: 1, value: 'b9' }] })
  const groupId = uniq('group')
  const c = newConsumer({ groupId })
  await c.connect()
  await c.subscribe({ topics: [topic], fromBeginning: true })
  const perPartition = { 0: [], 1: [] }
  const batches = []
  await c.run({
    eachBatchAutoResolve: false,
    autoCommit: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
      batches.push({ partition: batch.partition, hw: batch.highWatermark, first: batch.firstOffset(), last: batch.lastOffset(), lag: batch.offsetLag() })
      for (const m of batch.messages) {
        if (!isRunning() || isStale()) break
        perPartition[batch.partition].push([m.offset, str(m.value)])
        resolveOffset(m.offset)
        await heartbeat()
      }
      await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition: batch.partition, offset: String(Number(batch.lastOffset()) + 1) }] }] })
    },
  })
  await waitFor(() => perPartition[0].length + perPartition[1].length >= 10, 'ten messages in batches')
  await c.disconnect()
  assert.deepEqual(perPartition[0], [['0', 'b0'], ['1', 'b2'], ['2', 'b4'], ['3', 'b6'], ['4', 'b8']])
  assert.deepEqual(perPartition[1], [['0', 'b1'], ['1', 'b3'], ['2', 'b5'], ['3', 'b7'], ['4', 'b9']])
  for (const b of batches.filter(x => x.first !== null)) {
    assert.equal(b.hw, '5', `batch ${JSON.stringify(b)}`)
  }
  const offsets = await admin.fetchOffsets({ groupId, topics: [topic] })
  assert.deepEqual(offsets[0].partitions.map(p => [p.partition, p.offset]).sort(), [[0, '5'], [1, '5']])
})

check('transactions.commitAbortReadCommitted', async () => {
  const topic = await createTopic(uniq('txn'), 1)
  const producer = await newProducer({ transactionalId: uniq('tid'), idempotent: true, maxInFlightRequests: 1 })
  let txn = await producer.transaction()
  await txn.send({ topic, messages: [{ value: 'c0' }, { value: 'c1' }, { value: 'c2' }] }) // offsets 0-2, marker 3
  await txn.commit()
  txn = await producer.transaction()
  await txn.send({ topic, messages: [{ value: 'a0' }, { value: 'a1' }] }) // offsets 4-5, marker 6
  await txn.abort()
  txn = await producer.transaction()
  await txn.send({ topic, compression: CompressionTypes.GZIP, messages: [{ value: 'c3' }] }) // offset 7, marker 8
  await txn.commit()
  // An open transaction holds the last stable offset at 9.
  const open = await producer.transaction()
  await open.send({ topic, messages: [{ value: 'open' }] }) // offset 9
  const plain = await newProducer()
  await plain.send({ topic, acks: -1, messages: [{ value: 'end' }] }) // offset 10, beyond the LSO

  // kafkajs lists offsets read_committed: the high mark is the last stable offset, 9.
  const [o] = await admin.fetchTopicOffsets(topic)
  assert.deepEqual([o.low, o.high], ['0', '9'])
  const uncommitted = await consume(topic, g => g.some(m => str(m.value) === 'end'), { readUncommitted: true })
  assert.deepEqual(uncommitted.map(m => [m.offset, str(m.value)]),
    [['0', 'c0'], ['1', 'c1'], ['2', 'c2'], ['4', 'a0'], ['5', 'a1'], ['7', 'c3'], ['9', 'open'], ['10', 'end']])

  // read_committed stops at the open transaction...
  const c = newConsumer({ groupId: uniq('group'), readUncommitted: false })
  await c.connect()
  await c.subscribe({ topics: [topic], fromBeginning: true })
  const committed = []
  await c.run({ autoCommit: false, eachMessage: async ({ message }) => { committed.push([message.offset, str(message.value)]) } })
  await waitFor(() => committed.length >= 4, 'committed messages')
  await sleep(800)
  assert.deepEqual(committed, [['0', 'c0'], ['1', 'c1'], ['2', 'c2'], ['7', 'c3']])
  // ... and goes on once it is aborted.
  await open.abort()
  await waitFor(() => committed.length >= 5, 'message after the aborted transaction')
  await c.disconnect()
  assert.deepEqual(committed, [['0', 'c0'], ['1', 'c1'], ['2', 'c2'], ['7', 'c3'], ['10', 'end']])
})

check('transactions.sendOffsets', async () => {
  const input = await createTopic(uniq('txin'), 1)
  const output = await createTopic(uniq('txout'), 1)
  const groupId = uniq('group')
  const plain = await newProducer()
  await plain.send({ topic: input, acks: -1, messages: Array.from({ length: 6 }, (_, i) => ({ value: `in${i}` })) })

  const producer = await newProducer({ transactionalId: uniq('tid'), idempotent: true, maxInFlightRequests: 1 })
  // consume-transform-produce, committed: output gets 3 records, the group's offset moves to 3.
  let txn = await producer.transaction()
  await txn.send({ topic: output, messages: [0, 1, 2].map(i => ({ key: `k${i}`, value: `IN${i}` })) })
  await txn.sendOffsets({ consumerGroupId: groupId, topics: [{ topic: input, partitions: [{ partition: 0, offset: '3' }] }] })
  await txn.commit()
  // Kafka answers EndTxn before the commit marker reaches __consumer_offsets; until it
  // does, the committed offset is not visible (no requireStable here)
  const committedOffset = async () =>
    (await admin.fetchOffsets({ groupId, topics: [input] }))[0].partitions.map(p => p.offset)
  await waitFor(async () => (await committedOffset())[0] === '3', 'the committed offset')

  // aborted: neither output records nor offsets.
  txn = await producer.transaction()
  await txn.send({ topic: output, messages: [{ key: 'k3', value: 'ABORTED' }] })
  await txn.sendOffsets({ consumerGroupId: groupId, topics: [{ topic: input, partitions: [{ partition: 0, offset: '6' }] }] })
  await txn.abort()
  assert.deepEqual(await committedOffset(), ['3'])

  // The group resumes from the transactionally committed offset.
  const fromGroup = await consume(input, g => g.length >= 3, { groupId })
  assert.deepEqual(fromGroup.map(m => [m.offset, str(m.value)]), [['3', 'in3'], ['4', 'in4'], ['5', 'in5']])

  await plain.send({ topic: output, acks: -1, messages: [{ value: 'end' }] })
  const out = await consume(output, g => g.some(m => str(m.value) === 'end'))
  assert.deepEqual(out.map(m => [m.offset, str(m.key), str(m.value)]),
    [['0', 'k0', 'IN0'], ['1', 'k1', 'IN1'], ['2', 'k2', 'IN2'], ['6', null, 'end']])
})

// ---------------------------------------------------------------------------------------------
async function main() {
  admin = kafka.admin({ retry: { retries: 3, initialRetryTime: 100 } })
  await admin.connect()
  let failed = 0
  for (const { name, fn } of checks) {
    if (only.size && !only.has(name)) continue
    const t0 = Date.now()
    logLines.length = 0
    try {
      await withTimeout(fn(), 60000, name)
      console.log(`PASS ${name} (${Date.now() - t0} ms)`)
    } catch (e) {
      failed++
      console.log(`FAIL ${name}: ${(e && e.stack) || e}`.replace(/\n/g, '\n    '))
      for (const line of logLines.slice(-30)) console.log(`    log: ${line}`)
    } finally {
      while (opened.length) await opened.pop().disconnect().catch(() => {})
    }
  }
  await admin.disconnect()
  process.exit(failed ? 1 : 0)
}

main().catch(e => {
  console.log(`FAIL main: ${(e && e.stack) || e}`)
  process.exit(2)
})
