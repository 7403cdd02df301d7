package gradleflaky.repeat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;

/**
 * Repeats a JUnit Platform selection inside one test JVM: a test engine, found by the launcher through
 * {@code META-INF/services/org.junit.platform.engine.TestEngine} on the test runtime classpath (which
 * gradle-flaky's init script adds for one invocation), that runs the launcher's discovery request
 * {@link Iterations#get()} − 1 more times through every other engine on the classpath (Jupiter, Vintage,
 * ...). The other engines run the selection once as usual, so each test executes that many times in all.
 *
 * <p>Each repetition is the engine's own discovery under a root of this engine's
 * ({@code [engine:gradle-flaky-repeat]/[repetition:2:junit-jupiter]}), so its descriptors are distinct
 * nodes of the test plan with the same sources and display names: the launcher reports each execution,
 * and a build tool names it by its class and method as usual. The launcher's post-discovery filters
 * (Gradle's {@code --tests}, tags) apply to these trees as to the engines' own. Only the public engine
 * API is used ({@code TestEngine.discover} and {@code execute}), as the launcher itself calls it.
 *
 * <p>The platform's suite engine ({@code junit-platform-suite}) is not repeated: a suite starts a
 * launcher of its own, whose engines (this one among them) would repeat inside every repetition.
 */
public final class PlatformRepeat implements TestEngine {

    static final String ID = "gradle-flaky-repeat";
    private static final String SUITE_ENGINE = "junit-platform-suite";

    /** The engine of each repetition's root, by the root's unique id. */
    private final Map<UniqueId, TestEngine> engines = new LinkedHashMap<>();

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        EngineDescriptor root = new EngineDescriptor(uniqueId, "gradle-flaky repetitions");
        int iterations = Iterations.get();
        if (iterations <= 1) {
            return root;
        }
        for (TestEngine engine : others()) {
            for (int i = 2; i <= iterations; i++) {
                UniqueId id = uniqueId.append("repetition", i + ":" + engine.getId());
                TestDescriptor repetition = engine.discover(request, id);
                root.addChild(repetition);
                engines.put(repetition.getUniqueId(), engine);
            }
        }
        return root;
    }

    @Override
    public void execute(ExecutionRequest request) {
        EngineExecutionListener listener = request.getEngineExecutionListener();
        TestDescriptor root = request.getRootTestDescriptor();
        listener.executionStarted(root);
        for (TestDescriptor repetition : new ArrayList<>(root.getChildren())) {
            TestEngine engine = engines.get(repetition.getUniqueId());
            if (engine == null) {
                continue;
            }
            engine.execute(new ExecutionRequest(repetition, listener, request.getConfigurationParameters()));
        }
        listener.executionFinished(root, TestExecutionResult.successful());
    }

    /** Every other engine the launcher can find (the same service lookup as the launcher's). */
    private static List<TestEngine> others() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = PlatformRepeat.class.getClassLoader();
        }
        List<TestEngine> out = new ArrayList<>();
        for (TestEngine engine : ServiceLoader.load(TestEngine.class, loader)) {
            if (!ID.equals(engine.getId()) && !SUITE_ENGINE.equals(engine.getId())) {
                out.add(engine);
            }
        }
        return out;
    }
}
