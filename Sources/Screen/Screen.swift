public enum ScreenPlaceholder {}
