import com.almworks.sqlite4java.SQLiteConnection;
import java.io.File;
import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.shared.access.sqlite.SQLiteLibraryLoader;

/**
 * DynamoDB Local's own launcher has no option for the address it listens on: its Jetty server takes
 * every interface, and the local database has no authentication. This starts the same server from the
 * same command-line options, with its connector bound to the host given first (127.0.0.1 by default).
 * The second argument names the SQLite file the server will keep the data in (empty: in memory).
 */
public class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    String host = args[0];
    if (!args[1].isEmpty()) prepareDatabase(new File(args[1]));
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 2, args.length));
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector connector : ((Server) field.get(proxy)).getConnectors()) ((ServerConnector) connector).setHost(host);
    proxy.start();
  }

  /**
   * A file DynamoDB Local creates itself gets 1 KB pages and a rollback journal: every commit writes,
   * syncs and deletes a journal, and a large item spans a chain of small pages. A file it has not
   * created yet is created here with 4 KB pages in WAL mode (both are kept in the file, and the
   * server uses the file as it finds it). An existing file is left as it is.
   */
  private static void prepareDatabase(File file) throws Exception {
    if (file.exists()) return;
    // The server's own copy of SQLite, loaded as it loads it: a second copy in the process crashes it.
    SQLiteLibraryLoader.initialize();
    SQLiteConnection db = new SQLiteConnection(file);
    try {
      db.open(true);
      db.exec("PRAGMA page_size = 4096");
      db.exec("PRAGMA journal_mode = WAL");
      // The page size is fixed when the first table is written; the table is not needed after that.
      db.exec("CREATE TABLE prepared (x)");
      db.exec("DROP TABLE prepared");
    } finally {
      db.dispose();
    }
  }
}
