// Reads one callgrind dump (the format of valgrind's callgrind, names compressed as it writes them):
// its total instructions, and how many of them were the self cost of V8's compilers and of its
// garbage collector (by function name; the helpers they call, such as memcpy, stay with the rest).
// instructions.mjs prints the rest as the program's own work: what a change to the sources moves.

/** V8's parser, bytecode generator, baseline and optimizing compilers, deoptimizer. */
const COMPILE =
  /v8::internal::compiler::|v8::internal::Compiler::|v8::internal::baseline::|v8::internal::maglev::|v8::internal::Parser|v8::internal::PreParser|v8::internal::Scanner|v8::internal::interpreter::Bytecode(?:Generator|ArrayBuilder|ArrayWriter|RegisterOptimizer)|v8::internal::Zone::|v8::internal::(?:Declaration)?Scope::|v8::internal::AstValueFactory|v8::internal::(?:Turbo|Macro)?Assembler::|v8::internal::Deoptimizer|v8::internal::OptimizingCompileDispatcher/;
/** The collector: marking, scavenging, sweeping, compaction, the write barrier. */
const GC =
  /v8::internal::Heap::|v8::internal::MarkCompactCollector|MarkingVisitor|v8::internal::MarkingBarrier|v8::internal::IncrementalMarking|v8::internal::ConcurrentMarking|v8::internal::Scavenger|v8::internal::Sweeper|v8::internal::MinorMarkCompact|v8::internal::Evacuat|v8::internal::RememberedSet|v8::internal::SlotSet|heap::base::|Builtins_RecordWrite|v8::internal::ArrayBufferSweeper|v8::internal::GlobalHandles::|MarkingWorklist/;

/**
 * @param {string} text the dump
 * @returns {{ total: number, compile: number, gc: number }}
 */
export function readCallgrindDump(text) {
  const names = new Map();
  const nameOf = (ref) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(ref);
    if (!m) return ref;
    if (m[2] !== undefined) names.set(m[1], m[2]);
    return names.get(m[1]) ?? '';
  };
  const summary = /^summary: (\d+)$/m.exec(text);
  if (!summary) throw new Error('not a callgrind dump: no summary line');
  /** Self cost by function name. */
  const self = new Map();
  let fn = '';
  let skipNext = false;
  for (const line of text.split('\n')) {
    const c = line.charCodeAt(0);
    const isCost = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42; // digit, + - *
    if (isCost) {
      // The line after `calls=` is the call's inclusive cost, not the caller's own.
      if (skipNext) {
        skipNext = false;
        continue;
      }
      const space = line.lastIndexOf(' ');
      if (space > 0) self.set(fn, (self.get(fn) ?? 0) + Number(line.slice(space + 1)));
      continue;
    }
    if (line.startsWith('fn=')) fn = nameOf(line.slice(3));
    else if (line.startsWith('cfn=')) nameOf(line.slice(4)); // defines the name for later references
    else if (line.startsWith('calls=')) skipNext = true;
  }
  let compile = 0;
  let gc = 0;
  for (const [name, ir] of self) {
    if (COMPILE.test(name)) compile += ir;
    else if (GC.test(name)) gc += ir;
  }
  return { total: Number(summary[1]), compile, gc };
}
