import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.KafkaThread;

/**
 * Kafka's CLI tools run one after the other in one JVM: each call runs a tool's main class on a fresh
 * thread named "main", as the java launcher would, and answers its exit code and how much it wrote.
 * That thread is a hidden class's (ToolThread, defined from its class file): the JVM leaves a hidden
 * class's frames, and a method handle's, out of stack traces, so a tool's stack traces end at its main
 * method, as in a JVM of its own, where nothing calls main from Java.
 *
 * Requests come on stdin (big-endian): int n, n strings (int length, UTF-8 bytes: the main class, then
 * its arguments), then the call's stdin (int length, bytes). This JVM's stdout and stderr are files the
 * caller reads: what a tool prints, through System.out or log4j's console appender alike, lands there as
 * it would in a JVM of its own. The answer goes to the file named by args[0] (a pipe): int exit code,
 * long bytes of stdout and of stderr written up to the exit (what the tool prints while it unwinds from
 * Exit.exit is not part of its output: a JVM of its own has stopped there), boolean clean (the call's
 * thread ended and left no thread behind: else the caller starts a new server), UTF-8 string (int length)
 * of the threads left. The JVM exits when its stdin ends, so it dies with its caller.
 *
 * Admin clients a tool leaves open are closed after its call (kafka-transactions exits without closing
 * its own; its JVM's exit would have ended it): found by their network thread, whose Runnable holds the
 * client (this needs --add-opens java.base/java.lang for Thread's target).
 *
 * Exits: Kafka's tools leave through org.apache.kafka.common.utils.Exit, whose procedures this JVM
 * replaces: the first exit() or halt() of a call ends it with its code. A tool whose main returns ends
 * with 0; one whose main throws ends with 1, the exception printed as the JVM prints it. The shutdown
 * hooks a call adds through Exit run as it ends (not after a halt), as a JVM's run at its exit (the
 * console producer closes its producer in one). Tools that
 * call System.exit themselves (kafka-verifiable-*, kafka-cluster through argparse4j) must not run here:
 * the JVM would exit (the caller then reads its exit code and output and starts another).
 */
public final class ToolServer {
    private static final long UNWIND_MS = 5000;

    /** Thrown by Exit.exit/halt in a call: unwinds the tool, whose output is then no longer counted. */
    private static final class ExitCalled extends Error {
        private static final long serialVersionUID = 1L;

        ExitCalled() {
            super("exit", null, false, false);
        }
    }

    static final class Call {
        private final FileChannel out;
        private final FileChannel err;
        private boolean done;
        private int code;
        private long outBytes;
        private long errBytes;
        private final List<Thread> shutdownHooks = new ArrayList<>();

        Call(FileChannel out, FileChannel err) {
            this.out = out;
            this.err = err;
        }

        synchronized void addShutdownHook(Thread hook) {
            shutdownHooks.add(hook);
        }

        /** The call ends with exitCode: its shutdown hooks run first, unless it halts, as at a JVM's exit
         *  (a second exit waits here, as a second System.exit blocks). */
        synchronized void finish(int exitCode, boolean halt) {
            if (done) {
                return;
            }
            if (!halt) {
                shutdownHooks.forEach(Thread::start);
                for (Thread hook : shutdownHooks) {
                    try {
                        hook.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            System.out.flush();
            System.err.flush();
            try {
                outBytes = out.size();
                errBytes = err.size();
            } catch (IOException e) {
                outBytes = -1;
                errBytes = -1;
            }
            code = exitCode;
            done = true;
            notifyAll();
        }

        synchronized boolean isDone() {
            return done;
        }

        synchronized void await() throws InterruptedException {
            while (!done) {
                wait();
            }
        }
    }

    private static final Field THREAD_TARGET = threadTarget();
    private static volatile Call current;

    private ToolServer() {
    }

    public static void main(String[] argv) throws Throwable {
        Thread.currentThread().setName("kafka-tool-server");
        FileChannel out = new FileOutputStream(FileDescriptor.out).getChannel();
        FileChannel err = new FileOutputStream(FileDescriptor.err).getChannel();
        DataInputStream requests = new DataInputStream(new FileInputStream(FileDescriptor.in));
        DataOutputStream answers = new DataOutputStream(new FileOutputStream(argv[0]));
        MethodHandles.Lookup toolThread = toolThread();
        Exit.setExitProcedure((code, message) -> exitCall(code, false));
        Exit.setHaltProcedure((code, message) -> exitCall(code, true));
        Exit.setShutdownHookAdder(ToolServer::addShutdownHook);
        Thread.setDefaultUncaughtExceptionHandler(ToolServer::uncaught);
        while (true) {
            String[] words;
            byte[] input;
            try {
                words = new String[requests.readInt()];
                for (int i = 0; i < words.length; i++) {
                    words[i] = new String(readBytes(requests), StandardCharsets.UTF_8);
                }
                input = readBytes(requests);
            } catch (EOFException e) {
                Runtime.getRuntime().halt(0);
                return;
            }
            Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
            Call call = new Call(out, err);
            current = call;
            System.setIn(new ByteArrayInputStream(input));
            MethodHandle toolMain = mainOf(words[0]);
            Thread main = null;
            if (toolMain == null) {
                call.finish(1, false);
            } else {
                main = (Thread) toolThread.findConstructor(toolThread.lookupClass(),
                        MethodType.methodType(void.class, Call.class, MethodHandle.class, String[].class))
                        .invoke(call, toolMain, Arrays.copyOfRange(words, 1, words.length));
                main.start();
            }
            call.await();
            if (main != null) {
                main.join(UNWIND_MS);
            }
            closeAdminClients(before);
            List<String> left = leftBehind(before, main);
            answers.writeInt(call.code);
            answers.writeLong(call.outBytes);
            answers.writeLong(call.errBytes);
            answers.writeBoolean(left.isEmpty());
            byte[] names = String.join(", ", left).getBytes(StandardCharsets.UTF_8);
            answers.writeInt(names.length);
            answers.write(names);
            answers.flush();
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    /** ToolThread as a hidden class: its frames are not in stack traces. */
    private static MethodHandles.Lookup toolThread() throws IOException, IllegalAccessException {
        try (InputStream in = ToolServer.class.getResourceAsStream("ToolThread.class")) {
            return MethodHandles.lookup().defineHiddenClass(in.readAllBytes(), true);
        }
    }

    /** A tool's main method, or null after printing why there is none. */
    private static MethodHandle mainOf(String mainClass) {
        try {
            return MethodHandles.publicLookup().findStatic(Class.forName(mainClass), "main",
                    MethodType.methodType(void.class, String[].class));
        } catch (ReflectiveOperationException e) {
            System.err.println("Error: Could not find or load main class " + mainClass);
            System.err.println("Caused by: " + e);
            return null;
        }
    }

    /** The end of a call whose main threw t (the unwinding of an exit, or an uncaught exception). */
    static void threw(Call call, Throwable t) {
        if (!call.isDone()) {
            uncaught(Thread.currentThread(), t);
        }
        call.finish(1, false);
    }

    private static void exitCall(int code, boolean halt) {
        Call call = current;
        if (call != null) {
            call.finish(code, halt);
        }
        throw new ExitCalled();
    }

    /** A hook as Exit's default adder makes it, run when the call ends (the hooks of no call never run). */
    private static void addShutdownHook(String name, Runnable hook) {
        Call call = current;
        if (call != null) {
            call.addShutdownHook(name == null ? new Thread(hook) : KafkaThread.nonDaemon(name, hook));
        }
    }

    /** As the JVM's default handler prints it; the unwinding of an exit is not printed. */
    private static void uncaught(Thread thread, Throwable t) {
        if (t instanceof ExitCalled) {
            return;
        }
        PrintStream err = System.err;
        err.print("Exception in thread \"" + thread.getName() + "\" ");
        t.printStackTrace(err);
    }

    private static Field threadTarget() {
        try {
            Field target = Thread.class.getDeclaredField("target");
            target.setAccessible(true);
            return target;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;  // (then a tool leaving an admin client open replaces the server)
        }
    }

    /** Close the admin clients whose network threads the call started and left running. */
    private static void closeAdminClients(Set<Thread> before) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (THREAD_TARGET == null || before.contains(t) || !t.getName().startsWith("kafka-admin-client-thread")) {
                continue;
            }
            try {
                Object runnable = THREAD_TARGET.get(t);
                Field client = runnable.getClass().getDeclaredField("this$0");
                client.setAccessible(true);
                ((Admin) client.get(runnable)).close(Duration.ZERO);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // left behind: the caller replaces this server
            }
        }
    }

    /** The threads the call started that are still alive, but the JVM's own pools' (the ForkJoin common
     *  pool's workers, the process reapers left by argparse4j's run of stty for the terminal's width). */
    private static List<String> leftBehind(Set<Thread> before, Thread main) throws InterruptedException {
        long deadline = System.currentTimeMillis() + UNWIND_MS;
        List<String> left = new ArrayList<>();
        while (true) {
            left.clear();
            if (main != null && main.isAlive()) {
                left.add(main.getName());
            }
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t != main && !before.contains(t) && t.isAlive()
                        && !t.getName().startsWith("ForkJoinPool.commonPool-worker")
                        && !t.getName().equals("process reaper")) {
                    left.add(t.getName());
                }
            }
            if (left.isEmpty() || System.currentTimeMillis() > deadline) {
                return left;
            }
            Thread.sleep(20);
        }
    }
}

/** The thread of one call, named "main"; defined as a hidden class, so that its frames are hidden. */
final class ToolThread extends Thread {
    private final ToolServer.Call call;
    private final MethodHandle main;
    private final String[] args;

    ToolThread(ToolServer.Call call, MethodHandle main, String[] args) {
        super("main");
        this.call = call;
        this.main = main;
        this.args = args;
    }

    @Override
    public void run() {
        try {
            main.invokeExact(args);
            call.finish(0, false);
        } catch (Throwable t) {
            ToolServer.threw(call, t);
        }
    }
}
