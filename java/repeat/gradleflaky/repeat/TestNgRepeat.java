package gradleflaky.repeat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testng.IAnnotationTransformer;
import org.testng.IMethodInstance;
import org.testng.IMethodInterceptor;
import org.testng.ITestContext;
import org.testng.ITestListener;
import org.testng.ITestResult;
import org.testng.annotations.ITestAnnotation;

/**
 * Repeats TestNG test methods inside test JVMs through TestNG's own extension points, registered as a
 * listener of the Test task's TestNG options by gradle-flaky's init script, for one Gradle invocation.
 *
 * <p>An annotation transformer multiplies each test method's {@code invocationCount} by the iterations
 * this JVM runs: TestNG then invokes the method that many times and reports each invocation as its own
 * result (Gradle writes each as a test case of the class's XML file). Method-level and class-level
 * annotations are changed: a public method without its own {@code @Test} takes the class-level annotation,
 * a method with its own takes only its own invocation count (measured on TestNG 6.9.12: no method runs
 * twice as often).
 *
 * <p>Slices: with the selection given as classes ({@link Slices}), the task runs generated classes
 * {@code gradleflaky.repeat.NgSlice0 …}, one test JVM each, whose {@code @Factory} ({@link #instances})
 * creates the instances of the classes that JVM runs, each repeated its share of the iterations (Gradle's
 * own filters select their tests; run on its own, a method interceptor selects by {@link Selection}); and
 * each execution is named with its iteration in its JVM ({@code method #3}), so that gradle-flaky counts
 * {@code #1} as a first execution wherever the JVMs' results are written. The name is TestNG's result name, set as the test starts: Gradle
 * adds the listeners of the task's options before its own (4.4.1 to 9), so that the name is set when
 * Gradle reads it. A data provider's rows keep their names (Gradle appends the row after it); gradle-flaky
 * numbers them by TestNG's invocation count. Without slices, which methods run is decided by Gradle's
 * {@code --tests} filters, every class in a test JVM of its own.
 */
public final class TestNgRepeat implements IAnnotationTransformer, IMethodInterceptor, ITestListener {

    /** The share of the iterations of each class this JVM's slice runs (empty without slices). */
    private static final Map<Class<?>, Integer> SHARES = new LinkedHashMap<>();

    /** Executions so far in this JVM of each test (class and method). */
    private final Map<String, Integer> executions = new HashMap<>();

    /**
     * The instances slice {@code slice} runs: one of each class it runs (and of the test classes nested in an
     * {@code Outer$*} entry), its share recorded for the transformer.
     */
    static Object[] instances(int slice) throws Exception {
        ClassLoader loader = TestNgRepeat.class.getClassLoader();
        List<Object> out = new ArrayList<>();
        for (Slices.Share share : Slices.of(slice)) {
            Class<?> c = Class.forName(share.className(), true, loader);
            List<Class<?>> classes = new ArrayList<>();
            classes.add(c);
            if (share.nested()) {
                addNested(c, classes);
            }
            for (Class<?> k : classes) {
                SHARES.put(k, share.count);
                Constructor<?> constructor = k.getDeclaredConstructor();
                constructor.setAccessible(true);
                out.add(constructor.newInstance());
            }
        }
        return out.toArray();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void transform(ITestAnnotation annotation, Class testClass, Constructor testConstructor, Method testMethod) {
        int iterations = iterationsOf(testMethod != null ? testMethod.getDeclaringClass() : testClass);
        if (iterations <= 1 || (testMethod == null && testClass == null)) {
            return;
        }
        annotation.setInvocationCount(Math.max(1, annotation.getInvocationCount()) * iterations);
    }

    /**
     * How many times the tests declared in {@code declaring} run here: their class's share in a slice (the
     * first class of the slice declaring or inheriting them), else every iteration.
     */
    private static int iterationsOf(Class<?> declaring) {
        if (SHARES.isEmpty()) {
            return Iterations.get();
        }
        for (Map.Entry<Class<?>, Integer> e : SHARES.entrySet()) {
            if (declaring != null && declaring.isAssignableFrom(e.getKey())) {
                return e.getValue();
            }
        }
        return 1;
    }

    @Override
    public List<IMethodInstance> intercept(List<IMethodInstance> methods, ITestContext context) {
        Selection selection = Slices.selected() ? Selection.fromProperty() : null;
        if (selection == null) {
            return methods;
        }
        List<IMethodInstance> out = new ArrayList<>();
        for (IMethodInstance m : methods) {
            if (selection.matches(m.getMethod().getTestClass().getName(), m.getMethod().getMethodName())) {
                out.add(m);
            }
        }
        return out;
    }

    @Override
    public void onTestStart(ITestResult result) {
        if (SHARES.isEmpty() || (result.getParameters() != null && result.getParameters().length > 0)) {
            return;
        }
        String key = result.getTestClass().getName() + "." + result.getName();
        int n;
        synchronized (executions) {
            n = executions.merge(key, 1, Integer::sum);
        }
        rename(result, result.getName() + " #" + n);
    }

    /** Sets the name TestNG gives {@code result} (its private field: TestNG offers no setter for it). */
    private static void rename(ITestResult result, String name) {
        for (Class<?> c = result.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField("m_name");
                f.setAccessible(true);
                f.set(result, name);
                return;
            } catch (NoSuchFieldException e) {
                // Declared higher up, if anywhere.
            } catch (ReflectiveOperationException | RuntimeException e) {
                return;
            }
        }
    }

    /** The public static TestNG classes nested in {@code outer} (at any depth). */
    private static void addNested(Class<?> outer, List<Class<?>> out) {
        for (Class<?> inner : outer.getDeclaredClasses()) {
            int mods = inner.getModifiers();
            if (Modifier.isStatic(mods) && Modifier.isPublic(mods) && !Modifier.isAbstract(mods) && hasTests(inner)) {
                out.add(inner);
            }
            addNested(inner, out);
        }
    }

    /** TestNG's {@code @Test} on the class or one of its methods. */
    private static boolean hasTests(Class<?> c) {
        if (c.isAnnotationPresent(org.testng.annotations.Test.class)) {
            return true;
        }
        for (Method m : c.getMethods()) {
            if (m.isAnnotationPresent(org.testng.annotations.Test.class)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onTestSuccess(ITestResult result) {}

    @Override
    public void onTestFailure(ITestResult result) {}

    @Override
    public void onTestSkipped(ITestResult result) {}

    @Override
    public void onTestFailedButWithinSuccessPercentage(ITestResult result) {}

    @Override
    public void onStart(ITestContext context) {}

    @Override
    public void onFinish(ITestContext context) {}
}
