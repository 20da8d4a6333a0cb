from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("settings/", views.settings, name="settings"),
    path("password/", views.change_password, name="change_password"),
    path("logout/everywhere/", views.logout_everywhere, name="logout_everywhere"),
    path("delete/", views.delete_account, name="delete_account"),
]
