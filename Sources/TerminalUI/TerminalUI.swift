import CNcurses
public enum TerminalUIPlaceholder {}
