package gradleflaky.repeat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import org.testng.IAnnotationTransformer;
import org.testng.annotations.ITestAnnotation;

/**
 * Repeats TestNG test methods inside one test JVM through TestNG's own extension point: an annotation
 * transformer that multiplies each test method's {@code invocationCount} by {@link Iterations#get()}.
 * TestNG then invokes the method that many times and reports each invocation as its own result (Gradle
 * writes each as a test case of the class's XML file). Registered as a listener of the Test task's
 * TestNG options by gradle-flaky's init script, for one Gradle invocation.
 *
 * <p>Method-level and class-level annotations are changed: a public method without its own {@code @Test}
 * takes the class-level annotation, a method with its own takes only its own invocation count (measured
 * on TestNG 6.9.12: no method runs twice as often). Which methods run is still decided by Gradle's
 * {@code --tests} filters; a method the filters leave out is not invoked however often it would be.
 */
public final class TestNgRepeat implements IAnnotationTransformer {

    @Override
    @SuppressWarnings("rawtypes")
    public void transform(ITestAnnotation annotation, Class testClass, Constructor testConstructor, Method testMethod) {
        int iterations = Iterations.get();
        if (iterations <= 1 || (testMethod == null && testClass == null)) {
            return;
        }
        annotation.setInvocationCount(Math.max(1, annotation.getInvocationCount()) * iterations);
    }
}
